/**
 * Generated documentation-like HTML of a given size, for WebFetch's size tests and benchmark: a
 * navigation sidebar, scripts and styles (noise the conversion drops), then numbered sections,
 * each with prose, a links paragraph, a four-column table and a fenced code block. Deterministic:
 * the same size gives the same bytes. Every section's heading names its number
 * (`Section 12: …`), so a test can tell which part of the page a window holds.
 */

/** One section (about 1.5 KB of HTML). */
function section(n: number): string {
  const rows = Array.from(
    { length: 4 },
    (_, r) =>
      `<tr><td><code>option_${n}_${r}</code></td><td>integer</td><td>${n * 10 + r}</td><td>Controls part ${r} of feature ${n}; see the reference.</td></tr>`,
  ).join('\n');
  return `<section id="s${n}">
<h2>Section ${n}: configuring feature ${n}</h2>
<p>Feature ${n} reads its settings when the server starts. Each option below has a type and a default; values outside the range are rejected with an error that names the option. Restart the server after a change.</p>
<p>Related: <a href="/ref/feature-${n}.html">reference for feature ${n}</a>, <a href="../faq.html#f${n}">FAQ entry</a>.</p>
<table><thead><tr><th>Option</th><th>Type</th><th>Default</th><th>Meaning</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<pre><code class="language-js">import { feature${n} } from 'widget';
const config = { option: ${n}, enabled: true };
feature${n}.start(config); // returns a promise
</code></pre>
</section>`;
}

/** An HTML document of at least `bytes` bytes (UTF-8; ASCII content). */
export function generateDocsHtml(bytes: number): string {
  const head = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Widget reference</title>
<style>${'.c{color:#123}'.repeat(200)}</style><script>${'var noise=1;'.repeat(200)}</script></head><body>
<nav id="sidebar"><ol>${Array.from({ length: 50 }, (_, i) => `<li><a href="/p${i}.html">Page ${i}</a></li>`).join('')}</ol></nav>
<main><h1>Widget reference</h1>\n`;
  const tail = '</main><footer>End of the reference.</footer></body></html>\n';
  const parts = [head];
  let size = head.length + tail.length;
  for (let n = 1; size < bytes; n++) {
    const s = section(n);
    parts.push(s);
    size += s.length + 1;
  }
  parts.push(tail);
  return parts.join('\n');
}
