const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4(text: string): string | null {
  const m = IPV4.exec(text);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts.join('.') : null;
}

// Expands an IPv6 address to its eight 16-bit groups; null when it is not one.
function ipv6Groups(text: string): number[] | null {
  let s = text.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  const v4 = ipv4(s.slice(lastColon + 1));
  if (v4) {
    const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    s = `${s.slice(0, lastColon + 1)}x`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (g === 'x') continue;
      if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !rest) return null;
  const given = head.length + rest.length + tail.length;
  if (halves.length === 1) return given === 8 ? [...head, ...tail] : null;
  if (given > 7) return null;
  return [...head, ...new Array<number>(8 - given).fill(0), ...rest, ...tail];
}

/**
 * The group an anonymous client is counted in: an IPv4 address as is, an IPv6 address by its /64 network
 * (one subscriber usually holds a whole /64, so counting single IPv6 addresses would be no limit at all),
 * IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as the IPv4 address. Anything else (no socket, a forged header
 * behind a trusted proxy) is kept as short text.
 * @example clientGroup('2001:db8:1:2:3:4:5:6') // '2001:db8:1:2::/64'
 */
export function clientGroup(address: string | null | undefined): string {
  if (!address) return 'unknown';
  const text = address.trim().replace(/^\[|\]$/g, '');
  const v4 = ipv4(text);
  if (v4) return v4;
  const groups = ipv6Groups(text);
  if (groups) {
    if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
      const [hi, lo] = [groups[6]!, groups[7]!];
      return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
    }
    return `${groups
      .slice(0, 4)
      .map((g) => g.toString(16))
      .join(':')}::/64`;
  }
  return `other:${text.slice(0, 64).replace(/[^\x21-\x7e]/g, '?')}`;
}
