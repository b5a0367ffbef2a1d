/**
 * The detectors that look at a command's words only for some programs copy those words only for
 * them (secrets.ts DUMPERS, bindings.ts BINDERS, shell-state.ts and execution.ts): one row per
 * program each gate lets through, so a program missing from a gate fails here, and rows for
 * programs outside it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../parser.js';
import { parseAndSplit } from '../split.js';
import { boundNames } from './bindings.js';
import type { Detector } from './detector.js';
import { ENVIRONMENT_DUMP, EVAL_OR_SOURCE, SHELL_OPTION_CHANGE } from './index.js';

beforeAll(async () => {
  await initShellParser();
});

const fires = (d: Detector, command: string): boolean => d.detect(command, parseAndSplit(command)).length > 0;

describe('ENVIRONMENT_DUMP: every program it reads', () => {
  const rows: [command: string, expected: boolean, why: string][] = [
    ['env', true, 'env without a command'],
    ['printenv', true, 'printenv without a name'],
    ['export', true, 'export without a name'],
    ['declare -p', true, 'declare without a name'],
    ['typeset -x', true, 'typeset without a name'],
    ['set', true, 'set alone'],
    ['compgen -v', true, 'compgen lists variables'],
    ['ps e', true, 'BSD-style e'],
    ['awk \'BEGIN{print ENVIRON["X"]}\'', true, 'awk reads ENVIRON'],
    ['gawk \'BEGIN{print ENVIRON["X"]}\'', true, 'gawk'],
    ['mawk \'BEGIN{print ENVIRON["X"]}\'', true, 'mawk'],
    ['nawk \'BEGIN{print ENVIRON["X"]}\'', true, 'nawk'],
    ['busybox awk \'BEGIN{print ENVIRON["X"]}\'', true, 'busybox awk'],
    ['jq -n env', true, 'jq env'],
    ['gojq -n env', true, 'gojq'],
    ['jaq -n env', true, 'jaq'],
    ['env ls', false, 'env with a command'],
    ['echo env ENVIRON', false, 'a program outside the gate'],
    ['/usr/bin/printenv', true, 'a path: the basename is the program'],
  ];
  it.each(rows)('%j → %s (%s)', (command, expected) => {
    expect(fires(ENVIRONMENT_DUMP, command)).toBe(expected);
  });
});

describe('boundNames: every program that binds', () => {
  const rows: [command: string, names: string[], why: string][] = [
    ['read -r a b', ['a', 'b'], 'read operands'],
    ['mapfile -t lines', ['lines'], 'mapfile'],
    ['readarray arr', ['arr'], 'readarray'],
    ['getopts ab: opt', ['opt'], 'getopts: the second operand'],
    ['printf -v out %s x', ['out'], 'printf -v'],
    ['echo read a', [], 'a program outside the gate'],
  ];
  it.each(rows)('%j → %j (%s)', (command, names) => {
    const cmd = parseAndSplit(command).commands[0];
    expect(cmd && boundNames(cmd).map((b) => b.name)).toEqual(names);
  });
});

describe('SHELL_OPTION_CHANGE and EVAL_OR_SOURCE read the words of their programs', () => {
  const rows: [detector: Detector, command: string, expected: boolean, why: string][] = [
    [SHELL_OPTION_CHANGE, 'set -k', true, 'set reads its words'],
    [SHELL_OPTION_CHANGE, 'shopt -s extglob', true, 'shopt reads its words'],
    [SHELL_OPTION_CHANGE, 'enable -n echo', true, 'enable reads its words'],
    [SHELL_OPTION_CHANGE, 'echo set -k', false, 'another program: its words are not options'],
    [SHELL_OPTION_CHANGE, 'set -a; LD_PRELOAD=x', true, 'set -a before a dangerous assignment'],
    [EVAL_OR_SOURCE, "trap 'rm x' EXIT", true, 'trap with a command and a signal'],
    [EVAL_OR_SOURCE, 'trap -l', false, 'trap listing signals: no operand'],
    [EVAL_OR_SOURCE, 'alias ls=rm', true, 'alias defining a name'],
    [EVAL_OR_SOURCE, 'alias', false, 'alias listing'],
    [EVAL_OR_SOURCE, 'eval x', true, 'eval needs no operand check'],
    [EVAL_OR_SOURCE, 'echo trap a b alias=x', false, 'another program'],
  ];
  it.each(rows)('%#: %j → %s (%s)', (detector, command, expected) => {
    expect(fires(detector, command)).toBe(expected);
  });
});
