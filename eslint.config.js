import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const services = ['cli', 'detector', 'ingest', 'sink'];

/** The rooms' import rules (docs/architecture.md): a service's src is its own; others use its package. */
const reachingIntoAService = {
  group: ['**/services/*/src', '**/services/*/src/**'],
  message:
    "A service's src/ is its own: import its public surface ('@warden/<service>', src/index.ts) or move the code to shared/.",
};

export default tseslint.config(
  { ignores: ['node_modules/**', '.stack/**', 'coverage/**', 'dist/**', 'web/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['bench/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [reachingIntoAService] }] },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            reachingIntoAService,
            {
              group: services.map((s) => `@warden/${s}`),
              message: 'shared/ is the libraries every service builds on: it never imports a service.',
            },
          ],
        },
      ],
    },
  },
  ...services.map((service) => ({
    files: [`services/${service}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: services.filter((s) => s !== service).flatMap((s) => [`@warden/${s}`, `**/${s}/src/**`]),
              message: 'A service never imports another service; shared code belongs in shared/.',
            },
          ],
        },
      ],
    },
  })),
);
