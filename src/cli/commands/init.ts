import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { renderDetected, renderInitConfig, renderWorkflows } from '../../core/layout/render-init.js';
import { configFile } from '../../services/curator/read-library.js';
import { findSkillRoots, openLibrary } from '../../services/library.js';
import { exitCodes, type Command } from '../context.js';

/** The Action as a workflow names it, until a release tag is chosen with --action. */
const defaultAction = 'skillgarden/skillgarden@v1';

export const initCommand: Command = {
  name: 'init',
  summary: "detect the library's layout and write .skillgarden/config.yaml (and, with --workflows, the Action's two workflows)",
  usage: 'init [--workflows] [--action OWNER/REPO@REF] [--force] [--dry-run]',
  options: { workflows: { type: 'boolean' }, action: { type: 'string' }, force: { type: 'boolean' }, 'dry-run': { type: 'boolean' } },
  async run({ io, global, values }) {
    // Detection only: an existing skills_dir is what init would replace, so it is not read.
    let library = openLibrary(global.repo, undefined);
    // No known layout holds the skills: the folders that hold SKILL.md files become the roots (a stray one is left out).
    if (library.skills.length === 0 && library.layout.manifests.length === 0) {
      const found = findSkillRoots(global.repo).filter((r, i) => i === 0 || r.skills >= 2);
      if (found.length > 0)
        library = openLibrary(
          global.repo,
          found.slice(0, 5).map((r) => r.root || '.'),
        );
    }
    const files = [{ path: configFile, content: renderInitConfig(library.layout) }];
    if (values.workflows === true) {
      const action = typeof values.action === 'string' ? values.action : defaultAction;
      files.push(...renderWorkflows(library.layout, action));
    }
    const existing = files.filter((f) => existsSync(join(global.repo, f.path)));
    if (existing.length > 0 && values.force !== true && values['dry-run'] !== true) {
      throw new SkillgardenError('init/exists', `${existing.map((f) => f.path).join(', ')} already exist: pass --force to replace them.`, {
        data: { exitCode: 1, files: existing.map((f) => f.path) },
      });
    }
    const counts = { skills: library.skills.length, archived: library.archived.length, problems: library.findings.length };
    if (values['dry-run'] !== true) {
      for (const file of files) {
        mkdirSync(dirname(join(global.repo, file.path)), { recursive: true });
        writeFileSync(join(global.repo, file.path), file.content);
      }
    }
    if (global.json) {
      io.stdout.write(
        `${JSON.stringify({ layout: library.layout, ...counts, files: files.map((f) => f.path), written: values['dry-run'] !== true }, null, 2)}\n`,
      );
    } else {
      io.stdout.write(renderDetected(library.layout, counts));
      for (const f of library.findings) io.stdout.write(`${f.severity} ${f.code} ${f.file}:${f.line} ${f.message}\n`);
      const verb = values['dry-run'] === true ? 'would write' : 'wrote';
      io.stdout.write(`${verb} ${files.map((f) => f.path).join(', ')}${values['dry-run'] === true ? '' : ' (commit them)'}\n`);
    }
    return exitCodes.ok;
  },
};
