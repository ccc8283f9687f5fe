import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A self-signed certificate for `name` with the subject alternative names `names` (`DNS:localhost,IP:127.0.0.1`),
 * made with openssl in `dir`. Throws when openssl is missing or fails (its stderr in the message).
 * @example const { key, cert } = selfSignedCertificate(dir, 'node', 'DNS:localhost,IP:127.0.0.1')
 */
export function selfSignedCertificate(
  dir: string,
  name: string,
  names: string,
): { key: Buffer; cert: Buffer } {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.pem`);
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=${names}`,
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { encoding: 'utf8' },
  );
  if (made.error) throw new Error(`openssl could not run: ${made.error.message}`);
  if (made.status !== 0) throw new Error(`openssl req failed: ${made.stderr}`);
  return { key: readFileSync(key), cert: readFileSync(cert) };
}
