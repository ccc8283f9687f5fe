/**
 * What stopped a request from reaching `url`, in one sentence an operator can act on: `fetch failed` alone
 * names no cause, and the cause (undici's, Node's or OpenSSL's code) is a word few know. Null when `err` is
 * no network failure this knows.
 * @example networkProblem(err, new URL('http://127.0.0.1:4190/')) // 'port 4190 is one fetch refuses …'
 */
export function networkProblem(err: unknown, url: URL): string | null {
  const host = url.hostname;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const at = `${host}:${port}`;
  const cause = innermost(err);
  const code = String(cause.code ?? '');
  const message = String(cause.message ?? '');
  if (message === 'bad port' || code === 'ERR_INVALID_PORT')
    return `port ${port} is on the list of ports fetch refuses to connect to (the WHATWG "bad ports", such as 4190 and 6000), so no request was sent: serve the node's RPC on another port, or put a proxy in front of it (bad port)`;
  if (code === 'ECONNREFUSED')
    return `nothing accepts connections on ${at}: is the node running, and is ${port} its RPC port? (ECONNREFUSED)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL')
    return `the host name ${host} does not resolve (DNS ${code}): check the URL's host`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL')
    return `no route to ${host} (${code}): check the address, and the network between here and the node`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return `connecting to ${at} timed out (${code}): a firewall may drop the packets, or the host is down`;
  const tls = tlsProblem(code, message, host);
  if (tls) return tls;
  if (code === 'HPE_INVALID_CONSTANT' || code === 'HPE_INVALID_VERSION' || /^HPE_/.test(code))
    return `${at} answered something that is not HTTP (${code}): is its RPC served over TLS? Then the URL is https://`;
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return `${at} closed the connection before it answered (${code}): is it the node's RPC port, and is the URL's scheme (http:// or https://) the one the node serves?`;
  return null;
}

/** OpenSSL's and Node's TLS failures, each its own sentence. */
function tlsProblem(code: string, message: string, host: string): string | null {
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN')
    return `TLS: the node's certificate is self-signed, and not one this process trusts (${code}): give that certificate with NODE_RPC_CERT (pearld's rpc.cert)`;
  if (
    code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' ||
    code === 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' ||
    code === 'UNABLE_TO_GET_ISSUER_CERT'
  )
    return `TLS: the node's certificate is signed by an authority this process does not trust (${code}): give the node's certificate, or its authority's, with NODE_RPC_CERT`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return `TLS: the node's certificate is not valid now (${code}): renew it (pearld writes a new one when rpc.cert and rpc.key are removed)`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `TLS: the node's certificate does not name ${host} (${code}): use a host name the certificate names, or a certificate that names this one`;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number/i.test(message))
    return `TLS: the node does not speak TLS on this port (${code || 'wrong version number'}): use http://, or the node's TLS port`;
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code === 'EPROTO')
    return `TLS: the connection could not be secured (${code}: ${message})`;
  return null;
}

/** The deepest `cause` of an error: fetch's TypeError wraps undici's error, which may wrap Node's. */
function innermost(err: unknown): { code?: unknown; message?: unknown } {
  let e = err as { cause?: unknown; code?: unknown; message?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    const next = e.cause as typeof e;
    if (!next || typeof next !== 'object') break;
    e = next;
  }
  return e ?? {};
}
