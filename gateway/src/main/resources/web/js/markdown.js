// Model output as HTML: marked renders the markdown, DOMPurify removes anything that could run, highlight.js colours
// code, and each code block gets a copy button. Never hand-written parsing or sanitising.
import { marked } from '/vendor/marked/marked.esm.js';
import DOMPurify from '/vendor/dompurify/purify.es.js';

// highlight.js is the largest script of the page (128 KB): it is loaded when the first code block needs it, not
// before the first paint, and its parse then does not block the page while a long session is opened.
let highlighter;
function highlight(code) {
  highlighter ??= import('/vendor/highlight/highlight.min.js').then((module) => module.default);
  highlighter.then((hljs) => hljs.highlightElement(code), () => { /* the code stays readable, uncoloured */ });
}

marked.setOptions({ gfm: true, breaks: false });

export function renderMarkdown(target, text) {
  target.innerHTML = DOMPurify.sanitize(marked.parse(text || ''));
  for (const link of target.querySelectorAll('a[href]')) {
    link.setAttribute('rel', 'noopener noreferrer');
    link.setAttribute('target', '_blank');
  }
  for (const code of target.querySelectorAll('pre > code')) {
    highlight(code);
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'copy';
    copy.textContent = 'Copy';
    copy.setAttribute('aria-label', 'Copy the code');
    copy.addEventListener('click', async () => {
      await navigator.clipboard.writeText(code.textContent);
      copy.textContent = 'Copied';
      setTimeout(() => { copy.textContent = 'Copy'; }, 1500);
    });
    code.parentElement.append(copy);
  }
}
