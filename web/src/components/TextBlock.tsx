// A markdown text block of a dashboard (extension): a region named by its first line. The markdown
// is rendered by markdown-it with raw HTML off (`<script>` shows as text) and its link check
// (javascript:, vbscript:, file: and data: links are not made links); links open safely.
import MarkdownIt from 'markdown-it';
import { useMemo, useState } from 'preact/hooks';
import type { DisplaySize } from '../types.ts';
import type { TextBlock as Block } from '../types.ts';
import { narrower, ResizeHandle, wider } from './Resize.tsx';
import { FormActions } from './FormActions.tsx';

const md = new MarkdownIt({ html: false, linkify: true, typographer: true });
const defaultLink = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  tokens[i].attrSet('rel', 'noopener noreferrer nofollow');
  tokens[i].attrSet('target', '_blank');
  return defaultLink(tokens, i, options, env, self);
};

/** The block's markdown as HTML: safe to put in the page (no raw HTML, no script links). */
export function renderMarkdown(text: string): string {
  return md.render(text);
}

/** A short name of the block: its first line without markdown marks. */
export function textName(body: string): string {
  const line = body.split('\n').find((l) => l.trim()) ?? '';
  const plain = line
    .replace(/^[#>\-*+\s]+/, '')
    .replace(/[*_`[\]]|\(.*?\)/g, '')
    .trim();
  return plain.length > 40 ? `${plain.slice(0, 39)}…` : plain || 'Text';
}

interface Props {
  block: Block;
  editable: boolean;
  first: boolean;
  last: boolean;
  onEdit: () => void;
  onRemove: () => void;
  onMove: (delta: number) => void;
  onResize: (size: DisplaySize) => void;
}

export function TextBlock({ block: b, editable, first, last, onEdit, onRemove, onMove, onResize }: Props) {
  const html = useMemo(() => renderMarkdown(b.body), [b.body]);
  const [preview, setPreview] = useState<DisplaySize | null>(null);
  const name = textName(b.body);
  return (
    <section
      class={`widget text-block size-${preview ?? b.display_size}${preview ? ' resizing' : ''}`}
      aria-label={`Text: ${name}`}
      data-text-block={b.id}
      data-state="ready"
    >
      {editable && (
        <div class="widget-tools text-tools">
          <button
            type="button"
            class="icon"
            onClick={() => onMove(-1)}
            disabled={first}
            aria-label={`Move text ${name} earlier`}
            title="Move earlier"
          >
            ←
          </button>
          <button
            type="button"
            class="icon"
            onClick={() => onMove(1)}
            disabled={last}
            aria-label={`Move text ${name} later`}
            title="Move later"
          >
            →
          </button>
          <button
            type="button"
            class="icon"
            onClick={() => onResize(wider(b.display_size)!)}
            disabled={!wider(b.display_size)}
            aria-label={`Make text ${name} wider`}
            title="Wider"
          >
            ⇥
          </button>
          <button
            type="button"
            class="icon"
            onClick={() => onResize(narrower(b.display_size)!)}
            disabled={!narrower(b.display_size)}
            aria-label={`Make text ${name} narrower`}
            title="Narrower"
          >
            ⇤
          </button>
          <button type="button" class="icon" onClick={onEdit} aria-label={`Edit text ${name}`} title="Edit">
            ✎
          </button>
          <button type="button" class="icon" onClick={onRemove} aria-label={`Remove text ${name}`} title="Remove">
            ✕
          </button>
        </div>
      )}
      {/* markdown-it with html off: the only HTML here is what the markdown makes. */}
      <div class="markdown" dangerouslySetInnerHTML={{ __html: html }} />
      {editable && <ResizeHandle size={b.display_size} label={`text ${name}`} onPreview={setPreview} onResize={onResize} />}
    </section>
  );
}

/** The add/edit form: the markdown in a text area, with a preview. */
export function TextBlockForm({
  block,
  busy,
  onSave,
  onCancel,
}: {
  block?: Block;
  busy: boolean;
  onSave: (body: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(block?.body ?? '');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) onSave(text);
      }}
    >
      <label for="text-block-body">Markdown</label>
      <textarea id="text-block-body" rows={8} value={text} required maxLength={10000} onInput={(e) => setText(e.currentTarget.value)} />
      <p class="muted small">Headings (#), **bold**, *italic*, lists, [links](https://…) and tables. HTML is shown as text.</p>
      {text.trim() && (
        <div class="markdown text-preview" aria-label="Preview" role="region" dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />
      )}
      <FormActions submitLabel="Save text" onCancel={onCancel} disabled={busy || !text.trim()} />
    </form>
  );
}
