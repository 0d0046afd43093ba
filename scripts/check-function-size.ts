// The size limits of src/ (issue 11): no function or method over 80 lines, no file over 400 lines, outside
// migrations and generated SDKs. Prints the longest functions and every breach; exits 1 when one exists.
//   node -r @swc-node/register scripts/check-function-size.ts [--top N]
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 80;
export const MAX_FILE_LINES = 400;

const ROOT = join(__dirname, '..');

export interface Measured {
  file: string;
  name: string;
  line: number;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(source);
  }
  return '(anonymous)';
}

function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node)
  );
}

/** A spec's `describe(name, () => { ... })` body groups tests; it is not a function anyone reads as one. */
function isDescribeBlock(node: ts.Node): boolean {
  const call = node.parent;
  return ts.isCallExpression(call) && ts.isIdentifier(call.expression) && call.expression.text === 'describe';
}

/** Every function in one file with its length in lines (first to last line of the declaration). */
export function measureFunctions(file: string, text: string): Measured[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node) && node.body && !isDescribeBlock(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, name: nameOf(node, source), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main(): void {
  const topArg = process.argv.indexOf('--top');
  const top = topArg > 0 ? Number(process.argv[topArg + 1]) : 10;
  const files = sourceFiles(join(ROOT, 'src'));
  const functions: Measured[] = [];
  const longFiles: { file: string; lines: number }[] = [];
  for (const path of files) {
    const file = relative(ROOT, path);
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) longFiles.push({ file, lines });
    functions.push(...measureFunctions(file, text));
  }
  functions.sort((a, b) => b.lines - a.lines);
  console.log(`longest functions in src/ (limit ${MAX_FUNCTION_LINES} lines):`);
  for (const f of functions.slice(0, top))
    console.log(`  ${String(f.lines).padStart(4)}  ${f.file}:${f.line} ${f.name}`);
  const longFunctions = functions.filter((f) => f.lines > MAX_FUNCTION_LINES);
  for (const f of longFunctions)
    console.error(`function over ${MAX_FUNCTION_LINES} lines: ${f.file}:${f.line} ${f.name} (${f.lines})`);
  for (const f of longFiles) console.error(`file over ${MAX_FILE_LINES} lines: ${f.file} (${f.lines})`);
  if (longFunctions.length > 0 || longFiles.length > 0) process.exit(1);
  console.log(`${files.length} files, ${functions.length} functions: within the limits`);
}

if (require.main === module) main();
