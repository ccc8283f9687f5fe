import { describe, expect, it } from 'vitest';
import { SETTINGS } from './index.js';
import { editDistance, settingPrefixes, unknownVariables } from './unknown.js';

const warning = (name: string, meant?: string) =>
  `config: warning: ${name} is not a setting, ignored${meant ? `; did you mean ${meant}?` : ''}`;

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swapped neighbours', () => {
    expect(editDistance('PORT', 'PORT')).toBe(0);
    expect(editDistance('PROT', 'PORT')).toBe(1);
    expect(editDistance('DATABSE_URL', 'DATABASE_URL')).toBe(1);
    expect(editDistance('HOME', 'HOST')).toBe(2);
    expect(editDistance('', 'ABC')).toBe(3);
    expect(editDistance('KITTEN', 'SITTING')).toBe(3);
  });
});

describe('settingPrefixes', () => {
  it('takes the first word, widened to what a group of names shares', () => {
    expect(
      settingPrefixes(['NODE_RPC_URL', 'NODE_RPC_CERT', 'DB_POOL_SIZE', 'PORT', 'DATABASE_URL']),
    ).toEqual(['DATABASE_', 'DB_', 'NODE_RPC_']);
    // A group whose names share all but their last word keeps that last word to itself.
    expect(settingPrefixes(['RATE_LIMIT_ANON', 'RATE_LIMIT_KEY'])).toEqual(['RATE_LIMIT_']);
  });

  it('come from the declared settings, so a new group brings its prefix', () => {
    const prefixes = settingPrefixes();
    expect(prefixes).toEqual(
      expect.arrayContaining([
        'EXPLORER_',
        'DB_',
        'NODE_RPC_',
        'MARKET_',
        'RATE_LIMIT_',
        'WEBHOOK_',
        'DEVNET_',
      ]),
    );
    expect(prefixes).not.toContain('NODE_');
    for (const s of SETTINGS.filter((x) => x.env?.includes('_')))
      expect(
        prefixes.some((p) => s.env!.startsWith(p)),
        s.env,
      ).toBe(true);
  });
});

describe('unknownVariables', () => {
  it('says nothing about settings, or about other programs’ variables', () => {
    const env: Record<string, string> = {
      PATH: '/usr/bin',
      HOME: '/root',
      HOSTNAME: 'api-1',
      NODE_ENV: 'production',
      NODE_OPTIONS: '--max-old-space-size=512',
      TEST_DATABASE_URL: 'postgres://localhost/test',
      // The explorer CLI's and the build's.
      EXPLORER_BASE_URL: 'http://127.0.0.1:3000',
      EXPLORER_API_KEY: 'ek_x',
      EXPLORER_SKIP_DTS: '1',
      // Kubernetes' links to a service named redis.
      REDIS_SERVICE_HOST: '10.0.0.7',
      REDIS_SERVICE_PORT: '6379',
      REDIS_PORT: 'tcp://10.0.0.7:6379',
      REDIS_PORT_6379_TCP_ADDR: '10.0.0.7',
    };
    for (const s of SETTINGS) if (s.env) env[s.env] = 'x';
    expect(unknownVariables(env)).toEqual([]);
  });

  it('reports a variable with our prefix or a typo of our name, with a suggestion when one is close', () => {
    const lines = unknownVariables({
      EXPLORER_DATADIR: '/srv/explorer',
      DATABSE_URL: 'postgres://db/explorer',
      PROT: '8080',
      port: '8080',
      DB_POOL: '20',
      RATE_LIMIT_ANONYMOUS: '60',
      WEBHOOK_SECRET: 's',
      EXPLORER_PORT: '3000',
      MARKET_CURRENCY: 'eur',
    });
    expect(lines).toEqual([
      warning('DATABSE_URL', 'DATABASE_URL'),
      warning('DB_POOL', 'DB_POOL_SIZE'),
      warning('EXPLORER_DATADIR', 'EXPLORER_DATA_DIR'),
      warning('EXPLORER_PORT'),
      warning('MARKET_CURRENCY', 'MARKET_VS_CURRENCIES'),
      warning('PROT', 'PORT'),
      warning('RATE_LIMIT_ANONYMOUS', 'RATE_LIMIT_ANON'),
      warning('WEBHOOK_SECRET'),
      warning('port', 'PORT'),
    ]);
  });

  it('reports a Kubernetes-looking _PORT that holds no service address', () => {
    expect(unknownVariables({ REDIS_PORT: '6379' })).toEqual([warning('REDIS_PORT', 'REDIS_URL')]);
  });
});
