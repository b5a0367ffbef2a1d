/** Bundle entry: runs the hook with the process arguments after `hook`. */
import { hookMain } from './hook-main.js';

const argv = process.argv.slice(2);
await hookMain(argv[0] === 'hook' ? argv.slice(1) : argv);
