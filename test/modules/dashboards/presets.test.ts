// Dashboard presets take any filter dimension of the model, checked against it when written: an
// unknown dimension or a refused value is a 400 naming /body/global_filter_presets/<i>/filters/<name>.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ManualClock } from '../../../src/lib/clock.ts';
import { buildTestApp, call } from '../../helpers/app.ts';

const clock = new ManualClock(new Date('2026-11-21T15:00:00Z'));

test('with the movies example model, presets take genre and mpaa_rating and refuse country', async () => {
  const t = await buildTestApp({ clock, env: { INSIGHTS_MODEL: path.resolve('examples/movies/model.yml') } });
  try {
    const owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
    const ok = await call(t, owner, 'POST', '/api/v1/dashboards/', {
      name: 'Films',
      global_filter_presets: [
        { id: 'drama', name: 'Drama, rated R', filters: { genre: ['Drama', 'Comedy'], mpaa_rating: 'R', range: 'year_to_date' } },
      ],
      active_preset_id: 'drama',
    });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.deepEqual(ok.data.global_filter_presets[0].filters, { genre: ['Drama', 'Comedy'], mpaa_rating: 'R', range: 'year_to_date' });
    const got = await call(t, owner, 'GET', `/api/v1/dashboards/${ok.data.id}`);
    assert.deepEqual(got.data.global_filter_presets[0].filters.genre, ['Drama', 'Comedy']);

    const bad = await call(t, owner, 'POST', '/api/v1/dashboards/', {
      name: 'Films',
      global_filter_presets: [{ name: 'Germany', filters: { country: 'DE' } }],
    });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(bad.data.errors[0].path, '/body/global_filter_presets/0/filters/country');
    assert.match(bad.data.errors[0].message, /not a filter of the model .*genre/);

    const badPatch = await call(t, owner, 'PATCH', `/api/v1/dashboards/${ok.data.id}`, {
      global_filter_presets: [
        { id: 'drama', name: 'Drama', filters: { genre: 'Drama' } },
        { name: 'Bad', filters: { channel: ['web'] } },
      ],
    });
    assert.equal(badPatch.statusCode, 400, badPatch.body);
    assert.equal(badPatch.data.errors[0].path, '/body/global_filter_presets/1/filters/channel');
  } finally {
    await t.close();
  }
});

test('with the demo model, a preset value is checked as widget_filters are: a bad country names its field', async () => {
  const t = await buildTestApp({ clock });
  try {
    const owner = await t.login({ tenant: 'demo', user: 'owner', role: 'owner' });
    const bad = await call(t, owner, 'POST', '/api/v1/dashboards/', {
      name: 'Sales',
      global_filter_presets: [
        { name: 'DE', filters: { country: 'DE' } },
        { name: 'Germany', filters: { country: 'Germany' } },
      ],
    });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.equal(bad.data.errors[0].path, '/body/global_filter_presets/1/filters/country');
    const genre = await call(t, owner, 'POST', '/api/v1/dashboards/', {
      name: 'Sales',
      global_filter_presets: [{ name: 'Drama', filters: { genre: 'Drama' } }],
    });
    assert.equal(genre.statusCode, 400, genre.body);
    assert.equal(genre.data.errors[0].path, '/body/global_filter_presets/0/filters/genre');
    const ok = await call(t, owner, 'POST', '/api/v1/dashboards/', {
      name: 'Sales',
      global_filter_presets: [{ name: 'Web in DE and FR', filters: { country: ['DE', 'FR'], channel: 'web', category: 'Books' } }],
    });
    assert.equal(ok.statusCode, 201, ok.body);
    const empty = await call(t, owner, 'POST', '/api/v1/dashboards/', {
      name: 'Sales',
      global_filter_presets: [{ name: 'Empty', filters: { channel: [] } }],
    });
    assert.equal(empty.statusCode, 400, empty.body);
  } finally {
    await t.close();
  }
});
