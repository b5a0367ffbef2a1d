/** The part of marked-terminal 7's API the interactive face uses (the package ships no types). */
declare module 'marked-terminal' {
  import type { MarkedExtension } from 'marked';

  export interface TerminalRendererOptions {
    /** Wrap paragraphs at this many columns (with `reflowText`). */
    width?: number;
    reflowText?: boolean;
    /** Print link targets beside their text. */
    showSectionPrefix?: boolean;
    tab?: number;
    emoji?: boolean;
  }

  export function markedTerminal(
    options?: TerminalRendererOptions,
    highlightOptions?: unknown,
  ): MarkedExtension;
}
