import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';

/** The SDK READMEs' examples type-check as a user's strict project would check them. */
const run = promisify(execFile);
const SDK = join(__dirname, '../../sdk');

function codeBlocks(markdown: string, lang: string): string[] {
  const blocks: string[] = [];
  const fence = new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```', 'gm');
  for (let m = fence.exec(markdown); m; m = fence.exec(markdown)) blocks.push(m[1]);
  return blocks;
}

/** pyright, where one is installed (PYRIGHT=/path/to/pyright, or on PATH); the checks below do not need it. */
function pyright(): string | null {
  const candidates = [process.env.PYRIGHT, 'pyright'].filter((c): c is string => !!c);
  for (const c of candidates) {
    try {
      execFileSync(c, ['--version'], { stdio: 'ignore' });
      return c;
    } catch {
      // not this one
    }
  }
  return null;
}

describe('SDK READMEs', () => {
  it('TypeScript: every example compiles under strict against the SDK source', () => {
    const blocks = codeBlocks(readFileSync(join(SDK, 'typescript/README.md'), 'utf8'), 'ts');
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const dir = mkdtempSync(join(tmpdir(), 'fundgate-readme-ts-'));
    // each block is its own ES module (top-level await, as a user's module would have it)
    const files = blocks.map((code, i) => {
      const file = join(dir, `example${i}.ts`);
      writeFileSync(file, code + '\nexport {};\n');
      return file;
    });
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ES2022,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      typeRoots: [join(__dirname, '../../node_modules/@types')],
      baseUrl: dir,
      paths: { '@fundgate/sdk': [join(SDK, 'typescript/src/index.ts')] },
      skipLibCheck: true,
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && files.includes(d.file.fileName))
      .map((d) => {
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        return `example${files.indexOf(d.file!.fileName)}:${line + 1} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    expect(problems).toEqual([]);
  });

  it('Python: optional TypedDict fields are NotRequired for a type checker on 3.8-3.10 too; last_response is narrowed', async () => {
    // How a type checker reads models.py for Python 3.10: sys.version_info < (3, 11), TYPE_CHECKING true.
    // NotRequired must come from a module it knows (typing_extensions ships with pyright and mypy), not a shim.
    const script = `
import ast, json, sys
tree = ast.parse(open(sys.argv[1]).read())
def truth(test):
    if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
        return True
    if isinstance(test, ast.Compare) and ast.unparse(test.left) == "sys.version_info":
        return (3, 10) >= ast.literal_eval(test.comparators[0])
    raise ValueError(ast.unparse(test))
def bindings(body):
    out = []
    for node in body:
        if isinstance(node, ast.If):
            out += bindings(node.body if truth(node.test) else node.orelse)
        elif isinstance(node, ast.ImportFrom):
            out += [(a.asname or a.name, "from " + node.module) for a in node.names]
        elif isinstance(node, (ast.Assign, ast.ClassDef)):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)] if isinstance(node, ast.Assign) else [node.name]
            out += [(n, "assigned") for n in names]
    return out
print(json.dumps([how for name, how in bindings(tree.body) if name == "NotRequired"]))
`;
    const { stdout } = await run('python3', ['-c', script, join(SDK, 'python/fundgate/models.py')]);
    expect(JSON.parse(stdout)).toEqual(['from typing_extensions']);

    const examples = codeBlocks(readFileSync(join(SDK, 'python/README.md'), 'utf8'), 'python');
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const code of examples) {
      // last_response is Optional: every use of one of its members follows a `... is not None` narrowing
      const uses = [...code.matchAll(/last_response\.\w+/g)].map((m) => m.index);
      const guard = code.search(/last_response is not None/);
      for (const at of uses) expect({ code, narrowed: guard >= 0 && guard < at }).toEqual({ code, narrowed: true });
    }

    const checker = pyright();
    if (!checker) return; // the structural checks above stand in for it
    // the package itself type-checks too (webhooks.py's header pairs were "not iterable" for pyright)
    for (const version of ['3.8', '3.12']) {
      const pkg = await run(checker, ['--pythonversion', version, '--outputjson', join(SDK, 'python/fundgate')]).then(
        (r) => r.stdout,
        (e: { stdout: string }) => e.stdout,
      );
      const found = (JSON.parse(pkg) as { generalDiagnostics: { file: string; severity: string; message: string; range: { start: { line: number } } }[] }).generalDiagnostics
        .filter((d) => d.severity === 'error')
        .map((d) => `${d.file}:${d.range.start.line + 1} ${d.message}`);
      expect({ version, found }).toEqual({ version, found: [] });
    }
    const dir = mkdtempSync(join(tmpdir(), 'fundgate-readme-py-'));
    examples.forEach((code, i) => writeFileSync(join(dir, `example${i}.py`), code));
    writeFileSync(join(dir, 'pyrightconfig.json'), JSON.stringify({ extraPaths: [join(SDK, 'python')], typeCheckingMode: 'standard' }));
    for (const version of ['3.8', '3.10', '3.12']) {
      const out = await run(checker, ['--pythonversion', version, '--outputjson'], { cwd: dir }).then(
        (r) => r.stdout,
        (e: { stdout: string }) => e.stdout,
      );
      const diagnostics = (JSON.parse(out) as { generalDiagnostics: { file: string; message: string; range: { start: { line: number } } }[] }).generalDiagnostics;
      expect({ version, errors: diagnostics.map((d) => `${d.file}:${d.range.start.line + 1} ${d.message}`) }).toEqual({ version, errors: [] });
    }
  });
});
