// The index of a dimension's values (compose/match.ts PhraseIndex) finds exactly what trying every
// phrase at every word finds (findAll), in the same order: the composer's picks depend on that order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findAll, PhraseIndex, tokenize } from '../../../src/modules/chat/compose/match.ts';
import { prng } from '../../helpers/prng.ts';

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
    assert.deepEqual(new PhraseIndex(targets).find(tokens), findAll(tokens, targets), `round ${round}`);
  }
});
