// The index of phrases (compose/match.ts PhraseIndex, behind findAll too) finds exactly what trying
// every phrase at every word finds, in the same order: the composer's picks depend on that order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findAll, PhraseIndex, tokenize, type Found, type Token } from '../../../src/modules/chat/compose/match.ts';
import { prng } from '../../helpers/prng.ts';

/** The plain search: every phrase of every target tried at every word, target by target, phrase by phrase. */
function everyPlace<T>(tokens: Token[], targets: { target: T; phrases: string[][] }[]): Found<T>[] {
  const out: Found<T>[] = [];
  for (const { target, phrases } of targets) {
    for (const p of phrases) {
      if (!p.length) continue;
      for (let i = 0; i + p.length <= tokens.length; i++) {
        if (p.every((w, k) => tokens[i + k].stem === w)) out.push({ target, from: i, to: i + p.length, score: p.length });
      }
    }
  }
  return out;
}

const WORDS = ['new', 'york', 'city', 'north', 'south', 'garden', 'books', 'toys', 'de', 'the', 'of', 'us'];

test('an indexed search answers as the search of every phrase, in the same order', () => {
  const random = prng(39);
  const pick = () => WORDS[Math.floor(random() * WORDS.length)];
  const phrase = () => Array.from({ length: 1 + Math.floor(random() * 3) }, pick);
  for (let round = 0; round < 300; round++) {
    // Targets with one to three phrases each, words repeated across them, now and then an empty one.
    const targets = Array.from({ length: 1 + Math.floor(random() * 40) }, (_, i) => ({
      target: `t${i}`,
      phrases: Array.from({ length: 1 + Math.floor(random() * 3) }, () => (random() < 0.05 ? [] : phrase())),
    }));
    const tokens = tokenize(Array.from({ length: Math.floor(random() * 12) }, pick).join(' '));
    const expected = everyPlace(tokens, targets);
    assert.deepEqual(new PhraseIndex(targets).find(tokens), expected, `round ${round}`);
    assert.deepEqual(findAll(tokens, targets), expected, `round ${round}`);
  }
});
