// One type-aware lint for the server (src, migrations, test, bench, scripts) and the web pages (web/).
// `npm run lint` runs this and then scripts/check-function-size.ts.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'sdk/**',
      'coverage/**',
      'test-results/**',
      'bench/results/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked with its nearest tsconfig.json (the root one, or web/tsconfig.json).
        projectService: { allowDefaultProject: ['web/vite.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The rules the codebase commits to (issue 11).
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        // NestJS resolves constructor parameters from emitted decorator metadata: a type-only import of an
        // injected class would erase the runtime token, so the fixer must never rewrite those imports.
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // Nest lifecycle hooks and interface methods are async without awaiting by contract.
      '@typescript-eslint/require-await': 'off',
      // Numbers and booleans in template literals are how messages and SQL fragments are built here.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // Nest decorators are class-level, unbound methods are passed as handlers deliberately (Reflector keys).
      '@typescript-eslint/unbound-method': 'off',
      // The no-unsafe-* family flags every use of a value typed `any` that we did not write: TypeORM's
      // `query()` rows (typed by each repository method's declared return type) and JSON response bodies in
      // the e2e tests (~2,200 hits). Writing `any` ourselves stays an error (no-explicit-any above).
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Decorated classes: the emitted design:paramtypes must keep value imports of injected classes and DTOs.
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'migrations/**/*.ts'],
    languageOptions: { parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true } },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // React ignores what an event handler returns, so `onClick={async () => ...}` is the idiom; the
      // handlers catch their own errors into page state. Promises passed anywhere else are still checked.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
);
