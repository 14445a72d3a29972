/**
 * Writes api/skillgarden.api.md: every name src/index.ts exports, with its signature, as the TypeScript compiler
 * sees it. `--check` compares instead of writing and fails when the public surface changed without the report,
 * so a change to the API is deliberate (commit the new report with it). No dependency beyond typescript.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..');
const entry = join(root, 'src', 'index.ts');
const reportPath = join(root, 'api', 'skillgarden.api.md');

const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseFullyQualifiedType | ts.TypeFormatFlags.WriteArrowStyleSignature;

function buildReport(): string {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error('tsconfig.json could not be read');
  const program = ts.createProgram([entry], { ...config.options, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!source || !moduleSymbol) throw new Error('src/index.ts has no exports');
  const sections = checker
    .getExportsOfModule(moduleSymbol)
    .map((exported) => describe(checker, exported, source))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const lines = [
    '# skillgarden: the public API',
    '',
    '<!-- Written by `npm run api:report` (scripts/api-report.ts) from src/index.ts; CI checks it is current. -->',
    '',
    `${sections.length} exports.`,
    '',
  ];
  for (const section of sections) lines.push(`## ${section.name}`, '', `From \`${section.from}\`.`, '', '```ts', section.text, '```', '');
  return `${lines.join('\n').trimEnd()}\n`.replaceAll(root, '.');
}

function describe(checker: ts.TypeChecker, exported: ts.Symbol, at: ts.Node): { name: string; from: string; text: string } {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const declaration = symbol.declarations?.[0];
  const from = declaration ? relative(root, declaration.getSourceFile().fileName) : '?';
  const name = exported.name;
  const typeText = (type: ts.Type) => checker.typeToString(type, at, flags);
  const parts: string[] = [];
  if (symbol.flags & ts.SymbolFlags.Class) {
    const instance = checker.getDeclaredTypeOfSymbol(symbol);
    const statics = checker.getTypeOfSymbolAtLocation(symbol, at);
    parts.push(`class ${name} {`);
    for (const signature of statics.getConstructSignatures())
      parts.push(`  constructor(${signature.parameters.map((p) => parameter(checker, p, at)).join(', ')});`);
    for (const member of instance.getProperties()) {
      const memberDeclaration = member.valueDeclaration ?? member.declarations?.[0];
      const modifiers = memberDeclaration ? ts.getCombinedModifierFlags(memberDeclaration) : ts.ModifierFlags.None;
      if (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected) || member.name.startsWith('#')) continue;
      parts.push(`  ${member.name}: ${typeText(checker.getTypeOfSymbolAtLocation(member, at))};`);
    }
    parts.push('}');
  } else if (symbol.flags & ts.SymbolFlags.Function) {
    for (const signature of checker.getTypeOfSymbolAtLocation(symbol, at).getCallSignatures())
      parts.push(`function ${name}${checker.signatureToString(signature, at, flags & ~ts.TypeFormatFlags.WriteArrowStyleSignature)};`);
  } else if (symbol.flags & ts.SymbolFlags.Interface) {
    const type = checker.getDeclaredTypeOfSymbol(symbol);
    parts.push(`interface ${name} {`);
    for (const member of type.getProperties()) {
      const optional = member.flags & ts.SymbolFlags.Optional ? '?' : '';
      parts.push(`  ${member.name}${optional}: ${typeText(checker.getTypeOfSymbolAtLocation(member, at))};`);
    }
    parts.push('}');
  } else if (symbol.flags & ts.SymbolFlags.TypeAlias) {
    const node =
      declaration && ts.isTypeAliasDeclaration(declaration)
        ? declaration.type.getText()
        : typeText(checker.getDeclaredTypeOfSymbol(symbol));
    parts.push(`type ${name} = ${node};`);
  } else {
    parts.push(`const ${name}: ${typeText(checker.getTypeOfSymbolAtLocation(symbol, at))};`);
  }
  return { name, from, text: parts.join('\n') };
}

function parameter(checker: ts.TypeChecker, symbol: ts.Symbol, at: ts.Node): string {
  const declaration = symbol.valueDeclaration;
  const optional = declaration && ts.isParameter(declaration) && (declaration.questionToken || declaration.initializer) ? '?' : '';
  return `${symbol.name}${optional}: ${checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, at), at, flags)}`;
}

const report = buildReport();
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(reportPath, 'utf8');
  } catch {
    // no report yet: the comparison below fails and says what to do
  }
  if (committed !== report) {
    console.error(
      'api/skillgarden.api.md does not match src/index.ts: the public API changed. Run `npm run api:report`, review and commit it.',
    );
    process.exit(1);
  }
  console.log('api/skillgarden.api.md is current.');
} else {
  writeFileSync(reportPath, report);
  console.log(`wrote ${relative(root, reportPath)}`);
}
