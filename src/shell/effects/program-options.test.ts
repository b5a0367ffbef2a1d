/**
 * Options and meta-commands that run a program, load code or write a file are effects
 * (docs/shell-analysis.md "Programs that run, load or write"): an unknown exec asks even under an
 * allow rule for the program; a named file is judged like any path.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../../core/paths.js';
import { analyzeCommand } from '../analyze.js';
import { initShellParser } from '../parser.js';

beforeAll(async () => {
  await initShellParser();
});

const opts = { cwd: '/p', home: '/h', resolver: mapPathResolver({}, ['/p', '/h']) };
const unknownExec = (command: string) =>
  analyzeCommand(command, opts).effects.some((e) => e.kind === 'exec' && e.certainty === 'unknown');
const writes = (command: string) =>
  analyzeCommand(command, opts)
    .effects.filter((e) => e.kind === 'write')
    .map((e) => e.target);

describe('unknown executions', () => {
  it.each([
    ["psql -c '\\! rm -rf x'", 'psql shell escape'],
    ['psql -c "\\copy t to program \'sh\'"', 'psql \\copy to program'],
    ['psql -c "COPY t TO PROGRAM \'id\'"', 'COPY … PROGRAM on the server'],
    ['psql -c "COPY t TO \'/tmp/x\'"', 'COPY … TO a server file'],
    ['psql -f setup.sql', 'a script file (its meta-commands are not seen)'],
    ["psql -c '\\i other.sql'", '\\i runs a file'],
    ["psql -c '\\o | sh'", '\\o into a program'],
    ['psql < dump.sql', 'commands from a file on standard input'],
    ['cat q.sql | psql', 'commands from a pipe'],
    ['psql <<EOF\n\\! id\nEOF', 'a heredoc with a shell escape'],
    ['psql -c "$Q"', 'code from an expansion'],
    ["mysql -e 'system id'", 'mysql system'],
    ["mysql -e '\\! id'", 'mysql \\!'],
    ["mysql -e 'source x.sql'", 'mysql source'],
    ['mysql -e "select 1 into outfile \'/tmp/x\'"', 'INTO OUTFILE'],
    ['mysql -e "load data infile \'/etc/passwd\' into table t"', 'LOAD DATA INFILE on the server'],
    ['mysql --pager=sh', 'a pager program'],
    ['mysql --defaults-extra-file=/tmp/my.cnf', 'another option file'],
    ["mariadb -e 'system id'", 'mariadb is mysql'],
    ["sqlite3 app.db '.shell id'", 'sqlite3 .shell'],
    ["sqlite3 app.db '.system id'", 'sqlite3 .system'],
    ["sqlite3 app.db '.once -x'", '.once -x opens a program'],
    ["sqlite3 app.db '.read |sh'", '.read from a program'],
    ["sqlite3 app.db '.load ./ext'", '.load an extension'],
    ['sqlite3 app.db "select load_extension(\'x\')"', 'load_extension()'],
    ["sqlite3 app.db \"select writefile('x', 'y')\"", 'writefile()'],
    ["sqlite3 -cmd '.shell id' app.db", '-cmd'],
    ["redis-cli EVAL 'return 1' 0", 'server-side Lua'],
    ['redis-cli --eval x.lua', 'a Lua file'],
    ['redis-cli MODULE LOAD /tmp/x.so', 'a module'],
    ['redis-cli CONFIG SET dir /root/.ssh', 'CONFIG SET'],
    ["mongosh --eval 'db.x.find()'", 'mongosh JavaScript'],
    ['mongosh app.js', 'a mongosh script'],
    ["npx -c 'rm -rf x'", 'npx -c runs a shell string'],
    ["npm exec --call 'rm -rf x'", 'npm exec --call'],
    ['npx -p cowsay cowsay hi', 'the binary is picked by --package'],
    ['npx $T', 'a computed package'],
    ['pnpm dlx "$(cat p)"', 'a substituted package'],
    ['git -c core.pager=sh log', 'git -c with a program key'],
    ['git -c core.sshCommand=x fetch', 'core.sshCommand'],
    ['git -ccore.fsmonitor=x status', 'attached -c'],
    ['git -c $K=x log', 'a key from an expansion'],
    ['git --config-env=core.pager=P log', '--config-env'],
    ['git --exec-path=/tmp/x status', '--exec-path'],
    ['git clone -u /tmp/x https://h/r', 'clone --upload-pack'],
    ['git clone --template=/tmp/t https://h/r d', 'clone --template'],
    ['git clone --config core.hooksPath=h https://h/r d', 'clone --config'],
    ['git fetch --upload-pack=/tmp/x', 'fetch --upload-pack'],
    ['git push --receive-pack=/tmp/x origin', 'push --receive-pack'],
    ['git ls-remote --upload-pack=x origin', 'ls-remote --upload-pack'],
    ["git rebase -x 'make' main", 'rebase --exec'],
    ['git bisect run ./t.sh', 'bisect run'],
    ["git submodule foreach 'rm x'", 'submodule foreach'],
    ['git filter-branch --tree-filter x', 'filter-branch'],
    ['git difftool -x sh', 'difftool --extcmd'],
    ['git mergetool -t x', 'mergetool --tool'],
    ['git grep -O x', 'grep --open-files-in-pager'],
    ['git init --template=/tmp/t', 'init --template'],
    ['git merge -s evil main', 'a strategy that is not built in runs git-merge-evil'],
    ['git pull --strategy=x origin', 'pull --strategy='],
    ['git rebase -sx main', 'an attached strategy name'],
    ['git cherry-pick --strategy $S abc', 'a computed strategy'],
    ['git instaweb --httpd=/tmp/x', 'instaweb runs the named web server'],
    ['git web--browse --browser=/tmp/x u', 'web--browse runs the named browser'],
    ["git clone 'ext::sh -c id' d", 'the ext transport runs the command in the URL'],
    ["git fetch 'ext::sh -c id'", 'ext on fetch'],
    ["poetry run sh -c 'curl x | sh'", 'a runner handed a shell string'],
    ["poetry run bash -xc 'id'", 'bundled -c'],
    ["bundle exec ruby -e 'system(1)'", 'an interpreter with inline code'],
    ["conda run -n base python -c 'x'", 'inline code after a valued option'],
    ["pipenv run python3 -c 'x'", 'pipenv run'],
    ["uv run node -e 'x'", 'uv run node -e'],
    ["npx sh -c 'id'", 'npx running a shell string'],
    ['npm explore lodash', 'npm explore without a command opens a shell'],
    ["mise exec -c 'id'", 'mise exec -c runs a shell string'],
    ["nix-shell --run 'id'", 'nix-shell --run runs a shell string'],
    ['poetry run $CMD', 'a computed command'],
    ['npm init "$T"', 'a computed create package'],
  ])('%s (%s)', (command) => {
    expect(unknownExec(command)).toBe(true);
  });

  it.each([
    ["psql -c 'select 1'", 'a plain query'],
    ['psql -d app -U me -c "select count(*) from t"', 'a query with connection options'],
    ["mysql -e 'select 1'", 'a plain mysql query'],
    ["sqlite3 app.db 'select 1'", 'a plain sqlite query'],
    ['sqlite3 -safe app.db', 'safe mode'],
    ['redis-cli GET k', 'a plain redis command'],
    ['npm test', 'the project script (granted by an allow rule)'],
    ['npm install', 'installing the dependencies (granted by an allow rule)'],
    ['pip install requests', 'installing a package (granted by an allow rule)'],
    ['git -c color.ui=always log', 'a colour setting names no program'],
    ['git -c core.quotepath=false status', 'a quoting setting'],
    ['git log --oneline', 'a log'],
    ['git clone -c color.ui=auto https://h/r d', 'clone with a harmless config key'],
    ['uv tool list', 'listing tools'],
    ['git clone https://h/r d', 'an ordinary URL runs no helper'],
    ['git merge -s ours topic', 'a built-in strategy'],
    ['git pull --strategy=recursive -X theirs origin', 'a built-in strategy with an option'],
    ['git rebase -s ort main', 'the default strategy'],
    ['poetry run pytest -q', 'poetry run names what runs (granted by an allow rule)'],
    ['poetry run python manage.py test', 'a script file is named by the words'],
    ['bundle exec rake test', 'bundle exec names what runs'],
    ['conda run -n base python x.py', 'a valued option is skipped, the command is named'],
    ['npm explore lodash -- ls', 'npm explore with a command'],
    ['npm init -y', 'npm init with no package writes package.json only'],
    ['npm create vite@latest app', 'create names the package it runs'],
    ['mise exec node@20 -- node x.js', 'mise exec with a command after --'],
    ['nix-shell -p hello', 'nix-shell entering an environment runs no string'],
  ])('%s: no unknown exec (%s)', (command) => {
    expect(unknownExec(command)).toBe(false);
  });
});

describe('a runner whose command is not in its words', () => {
  const unknownWrite = (command: string) =>
    analyzeCommand(command, opts).effects.some((e) => e.kind === 'write' && e.certainty === 'unknown');
  it.each([
    ["poetry run sh -c 'echo x > out'", true, 'a shell string: its writes are not seen'],
    ["npx -c 'echo x > out'", true, 'npx -c'],
    ['npm explore lodash', true, 'an interactive shell'],
    ['poetry run pytest', false, 'a named program: its writes are its own work'],
    ['npx tsc --noEmit', false, 'a named package binary'],
  ])('%s → unknown write %s (%s)', (command, expected) => {
    expect(unknownWrite(command)).toBe(expected);
  });
});

describe('runner sub-commands name what they run', () => {
  const execs = (command: string) =>
    analyzeCommand(command, opts)
      .effects.filter((e) => e.kind === 'exec' && e.source === 'argument')
      .map((e) => `${e.certainty} ${e.target}`);

  it.each([
    ['npx rimraf dist', 'known npx rimraf dist', 'npx runs the named package binary'],
    ['npm exec -- rm -rf x', 'known npm exec rm -rf x', 'npm exec runs the named command'],
    ['npm x cowsay', 'known npm x cowsay', 'npm x'],
    ['pnpm dlx create-vite', 'known pnpm dlx create-vite', 'pnpm dlx'],
    ['pnpm exec tsc', 'known pnpm exec tsc', 'pnpm exec'],
    ['yarn dlx x', 'known yarn dlx x', 'yarn dlx'],
    ['bunx x', 'known bunx x', 'bunx'],
    ['bun x x', 'known bun x x', 'bun x'],
    ['uvx ruff check', 'known uvx ruff check', 'uvx'],
    ['uv run pytest', 'known uv run pytest', 'uv run'],
    ['uv tool run black', 'known uv tool black', 'uv tool run'],
    ['pipx run black .', 'known pipx run black .', 'pipx run'],
    ['cargo install --path .', 'known cargo install .', 'cargo install builds and installs'],
    ['poetry run pytest -q', 'known poetry run pytest -q', 'poetry run'],
    ['pipenv run python manage.py', 'known pipenv run python manage.py', 'pipenv run'],
    ['pdm run -p . pytest', 'known pdm run pytest', 'pdm run skips its valued -p'],
    ['hatch run test', 'known hatch run test', 'hatch run'],
    ['rye run lint', 'known rye run lint', 'rye run'],
    ['conda run -n base python x.py', 'known conda run python x.py', 'conda run skips -n NAME'],
    ['micromamba run -n e pytest', 'known micromamba run pytest', 'micromamba run'],
    ['bundle exec rspec', 'known bundle exec rspec', 'bundle exec'],
    ['composer exec phpunit', 'known composer exec phpunit', 'composer exec'],
    ['npm explore lodash -- ls', 'known npm explore ls', 'npm explore runs the words after --'],
    ['mise x node@20 -- node a.js', 'known mise x node a.js', 'mise x runs the words after --'],
    ['npm init vite@latest', 'known npm init create-vite@latest', 'npm init NAME runs create-NAME'],
    ['npm create @vue', 'known npm create @vue/create', 'a bare scope runs @scope/create'],
    ['npm init @s/app', 'known npm init @s/create-app', 'a scoped name runs @scope/create-NAME'],
    ['yarn create react-app x', 'known yarn create create-react-app', 'yarn create'],
    ['pnpm create vite', 'known pnpm create create-vite', 'pnpm create'],
    ['bun create vite', 'known bun create create-vite', 'bun create'],
    ["git clone 'fd::3' d", 'known git-remote-fd', 'a transport prefix runs its remote helper'],
    [
      'pip install requests',
      'known pip install (package build and install scripts)',
      'pip install runs setup.py',
    ],
  ])('%s → %s (%s)', (command, effect) => {
    expect(execs(command)).toContain(effect);
  });
});

describe('files named by meta-commands', () => {
  it.each([
    ["psql -c '\\o /h/.bashrc'", '/h/.bashrc', '\\o writes the file'],
    ['psql -o /h/.bashrc -c "select 1"', '/h/.bashrc', 'psql -o'],
    ['psql -L ~/.profile -c "select 1"', '/h/.profile', 'psql --log-file'],
    ['psql -c "\\copy t to \'/h/.bashrc\'"', '/h/.bashrc', '\\copy to a local file'],
    ["mysql -e 'tee /h/.bashrc'", '/h/.bashrc', 'mysql tee'],
    ['mysql --tee=/h/.bashrc', '/h/.bashrc', 'mysql --tee'],
    ["sqlite3 app.db '.output /h/.bashrc' 'select 1'", '/h/.bashrc', '.output'],
    ['sqlite3 app.db "ATTACH \'/h/.bashrc\' AS x"', '/h/.bashrc', 'ATTACH creates a database file'],
    ['sqlite3 app.db "VACUUM INTO \'/h/.zshrc\'"', '/h/.zshrc', 'VACUUM INTO'],
    ["sqlite3 app.db 'create table t(a)'", '/p/app.db', 'a modifying statement writes the database'],
    ['redis-cli --rdb /h/.bashrc', '/h/.bashrc', 'redis-cli --rdb'],
  ])('%s writes %s (%s)', (command, target) => {
    expect(writes(command)).toContain(target);
  });
});
