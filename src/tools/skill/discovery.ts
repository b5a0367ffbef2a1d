/**
 * Finds the skills of a session: every `<root>/<skill>/SKILL.md` under, in precedence order,
 * `<project>/.gantry/skills`, `<project>/.claude/skills`, `~/.gantry/skills`, `~/.claude/skills`.
 * Project skills come first (they travel with the repository), and the first skill of a name wins;
 * a later one of the same name is reported as shadowed. Reading only: Gantry never writes there.
 *
 * A file that cannot be read or parsed is not a skill; its error names the file. Skills with
 * `disable-model-invocation: true` are found (the person may still run them) but not offered.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseSkillFile, type SkillMeta } from './frontmatter.js';

export interface Skill {
  name: string;
  description: string;
  meta: SkillMeta;
  /** The body after the frontmatter, unrendered. */
  body: string;
  /** Absolute path of the skill's folder (`${CLAUDE_SKILL_DIR}`). */
  dir: string;
  file: string;
  /** Where it came from: project files widen permissions only as far as the project is trusted. */
  origin: 'project' | 'user';
}

export interface SkillProblem {
  file: string;
  message: string;
}

export interface SkillCatalog {
  skills: Skill[];
  problems: SkillProblem[];
}

export interface SkillRootsOptions {
  projectRoot: string;
  home?: string;
}

/** Skill names: letters, digits, `-`, `_`, `.`, `:` (namespaced), at most 64 characters. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** The skill folders searched, in precedence order. */
export function skillRoots(options: SkillRootsOptions): { dir: string; origin: 'project' | 'user' }[] {
  const home = options.home ?? homedir();
  return [
    { dir: path.join(options.projectRoot, '.gantry', 'skills'), origin: 'project' },
    { dir: path.join(options.projectRoot, '.claude', 'skills'), origin: 'project' },
    { dir: path.join(home, '.gantry', 'skills'), origin: 'user' },
    { dir: path.join(home, '.claude', 'skills'), origin: 'user' },
  ];
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Reads every skill under the roots (synchronous: a handful of small files at session start). */
export function discoverSkills(options: SkillRootsOptions): SkillCatalog {
  const skills: Skill[] = [];
  const problems: SkillProblem[] = [];
  const seen = new Map<string, string>();
  for (const root of skillRoots(options)) {
    for (const entry of listDir(root.dir)) {
      const dir = path.join(root.dir, entry);
      const file = path.join(dir, 'SKILL.md');
      let text: string;
      try {
        if (!statSync(dir).isDirectory()) continue;
        text = readFileSync(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
          problems.push({ file, message: `cannot read it (${(error as Error).message})` });
        continue;
      }
      const parsed = parseSkillFile(text);
      if (!parsed.ok) {
        problems.push({ file, message: parsed.error });
        continue;
      }
      const name = parsed.meta.name ?? entry;
      if (!NAME.test(name)) {
        problems.push({
          file,
          message: `the skill name "${name}" is not valid (letters, digits, - _ . :, at most 64)`,
        });
        continue;
      }
      const earlier = seen.get(name);
      if (earlier) {
        problems.push({ file, message: `shadowed by the skill "${name}" in ${earlier}` });
        continue;
      }
      seen.set(name, file);
      skills.push({
        name,
        description: parsed.meta.description ?? '',
        meta: parsed.meta,
        body: parsed.body,
        dir,
        file,
        origin: root.origin,
      });
    }
  }
  return { skills, problems };
}

/** The skills the model may invoke. */
export function invocableSkills(catalog: SkillCatalog): Skill[] {
  return catalog.skills.filter((s) => !s.meta.disableModelInvocation);
}
