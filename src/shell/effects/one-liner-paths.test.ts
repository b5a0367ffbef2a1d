/**
 * Paths inside interpreter one-liners are write targets (docs/shell-analysis.md "Interpreter
 * one-liners"): with open() mode prefixes, and when built from the home directory, so a protected
 * name written this way reaches the protected-path check with its real location.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../../core/paths.js';
import { analyzeCommand } from '../analyze.js';
import { initShellParser } from '../parser.js';
import { codePaths } from './interpreters.js';

beforeAll(async () => {
  await initShellParser();
});

const opts = { cwd: '/p', home: '/h', resolver: mapPathResolver({}) };
const writes = (command: string) =>
  analyzeCommand(command, opts)
    .effects.filter((e) => e.kind === 'write')
    .map((e) => e.target);

describe('one-liner write targets', () => {
  it.each([
    [`python3 -c "open('>>/h/.bashrc','a')"`, '/h/.bashrc', 'Perl-style mode prefix inside a Python string'],
    [`perl -e 'open(F, ">>$ENV{HOME}/.bashrc"); print F 1'`, '/h/.bashrc', 'perl 2-arg open, $ENV{HOME}'],
    [`perl -e 'open(my $f, "+<", "/h/.profile")'`, '/h/.profile', 'perl 3-arg open, read-write mode'],
    [`perl -e 'open(F, ">$HOME/.zshrc")'`, '/h/.zshrc', '$HOME inside a perl string'],
    [
      `python3 -c "from pathlib import Path; (Path.home() / '.bashrc').write_text('x')"`,
      '/h/.bashrc',
      'Path.home() / name',
    ],
    [`python3 -c "import os; open(os.path.expanduser('~/.bashrc'), 'a')"`, '/h/.bashrc', 'expanduser'],
    [
      `python3 -c "import os; open(os.path.join(os.environ['HOME'], '.bashrc'), 'a')"`,
      '/h/.bashrc',
      'os.environ HOME joined',
    ],
    [
      `node -e "require('fs').appendFileSync(process.env.HOME + '/.bashrc', 'x')"`,
      '/h/.bashrc',
      'process.env.HOME + name',
    ],
    [
      'node -e "fs.writeFileSync(`${process.env.HOME}/.zshrc`, 1)"',
      '/h/.zshrc',
      'template literal with HOME',
    ],
    [
      `node -e "fs.writeFileSync(path.join(os.homedir(), '.ssh/authorized_keys'), k)"`,
      '/h/.ssh/authorized_keys',
      'os.homedir()',
    ],
    [`ruby -e "File.write(ENV['HOME'] + '/.bashrc', 'x')"`, '/h/.bashrc', "Ruby ENV['HOME']"],
    [`ruby -e "File.write(Dir.home + '/.profile', 'x')"`, '/h/.profile', 'Ruby Dir.home'],
    [`ruby -e 'File.write("#{ENV["HOME"]}/.bashrc", 1)'`, '/h/.bashrc', 'Ruby interpolation'],
    [`php -r "file_put_contents(getenv('HOME').'/.bashrc', 'x');"`, '/h/.bashrc', 'PHP getenv HOME'],
    [`python3 -c "open('.env', 'w')"`, '/p/.env', 'a relative protected name'],
    [`perl -e 'open(F, ">out.txt")'`, '/p/out.txt', 'a plain name after a mode prefix'],
  ])('%s → %s (%s)', (command, target) => {
    expect(writes(command)).toContain(target);
  });

  it.each([
    [`python3 -c "print('hello')"`, 'no path at all'],
    [
      `python3 -c "import json; print(json.load(open('package.json'))['version'])"`,
      'a plain file name is not claimed',
    ],
    [`node -e "console.log(1 + 2)"`, 'arithmetic'],
    [`python3 -c "import sys; print(sys.version)"`, 'a version query'],
  ])('%s names no file (%s)', (command) => {
    expect(writes(command)).toEqual([]);
  });

  it('home-built names are reported below home, relative names in the cwd as well', () => {
    expect(codePaths("open(os.path.join(os.path.expanduser('~'), '.netrc'))")).toEqual(
      expect.arrayContaining([{ text: '.netrc', home: true }]),
    );
  });
});
