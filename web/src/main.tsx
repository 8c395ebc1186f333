import { render } from 'preact';
import './styles.css';
import './fonts.ts';
import { App } from './App.tsx';
import { loadCharts } from './lazy.ts';
import { applyTheme, storedTheme } from './theme.tsx';

applyTheme(storedTheme());

render(<App />, document.getElementById('app')!);

// Charts are on most pages: fetch their chunk now, while the first API calls are under way.
void loadCharts();
