import { render } from 'preact';
import './styles.css';
import './fonts.ts';
import { App } from './App.tsx';

render(<App />, document.getElementById('app')!);
