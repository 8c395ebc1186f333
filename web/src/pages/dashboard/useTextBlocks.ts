// A dashboard's markdown text blocks: loaded with the page, added, edited, moved, resized, removed.
import { useEffect, useState } from 'preact/hooks';
import { api, bodyOf } from '../../api.ts';
import { textName } from '../../components/TextBlock.tsx';
import type { useAction } from '../../components/useAsync.ts';
import type { TextBlock as Block } from '../../types.ts';

export function useTextBlocks(dash: { id: string }, action: ReturnType<typeof useAction>, setAnnounce: (said: string) => void) {
  const [blocks, setBlocks] = useState<Block[]>([]);
  const [editingText, setEditingText] = useState<Block | 'new' | null>(null);
  const [removingText, setRemovingText] = useState<Block | null>(null);
  useEffect(() => {
    void action.run(async () =>
      setBlocks(await bodyOf(api.GET('/api/v1/dashboards/{id}/text-blocks', { params: { path: { id: dash.id } } }))),
    );
  }, [dash.id]);

  const saveText = async (body: string) => {
    const current = editingText;
    const ok = await action.run(async () => {
      if (current === 'new') {
        const b = await bodyOf(api.POST('/api/v1/dashboards/{id}/text-blocks', { params: { path: { id: dash.id } }, body: { body } }));
        setBlocks((bs) => [...bs, b]);
      } else if (current) {
        const b = await bodyOf(
          api.PATCH('/api/v1/dashboards/{id}/text-blocks/{bid}', { params: { path: { id: dash.id, bid: current.id } }, body: { body } }),
        );
        setBlocks((bs) => bs.map((x) => (x.id === b.id ? b : x)));
      }
    });
    if (ok) {
      setEditingText(null);
      setAnnounce(current === 'new' ? 'Text added.' : 'Text saved.');
    }
  };
  const changeText = async (b: Block, changes: Partial<Pick<Block, 'position' | 'display_size'>>, said: string) => {
    const ok = await action.run(async () => {
      const nb = await bodyOf(
        api.PATCH('/api/v1/dashboards/{id}/text-blocks/{bid}', { params: { path: { id: dash.id, bid: b.id } }, body: changes }),
      );
      setBlocks((bs) => bs.map((x) => (x.id === nb.id ? nb : x)));
    });
    if (ok) setAnnounce(said);
  };
  const removeText = async (b: Block) => {
    const ok = await action.run(() =>
      bodyOf(api.DELETE('/api/v1/dashboards/{id}/text-blocks/{bid}', { params: { path: { id: dash.id, bid: b.id } } })),
    );
    if (ok) {
      setBlocks((bs) => bs.filter((x) => x.id !== b.id));
      setAnnounce(`Text ${textName(b.body)} removed.`);
    }
  };
  return { blocks, editingText, setEditingText, removingText, setRemovingText, saveText, changeText, removeText };
}
