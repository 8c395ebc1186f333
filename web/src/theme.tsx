// Light or dark: the system's choice unless the user picked one (kept in localStorage: a display
// preference, nothing secret). The stylesheet reads data-theme on <html>.
import { useState } from 'preact/hooks';

export type Theme = 'system' | 'light' | 'dark';
const KEY = 'insights.theme';

export function storedTheme(): Theme {
  const t = localStorage.getItem(KEY);
  return t === 'light' || t === 'dark' ? t : 'system';
}

export function applyTheme(t: Theme): void {
  if (t === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', t);
}

/** Whether the page is drawn dark now (charts pick their text colours by it). */
export function isDark(): boolean {
  const t = document.documentElement.getAttribute('data-theme');
  return t ? t === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
}

export function ThemePicker() {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  return (
    <label class="inline theme">
      <span class="sr-only">Colour theme</span>
      <select
        aria-label="Colour theme"
        value={theme}
        onChange={(e) => {
          const t = e.currentTarget.value as Theme;
          if (t === 'system') localStorage.removeItem(KEY);
          else localStorage.setItem(KEY, t);
          applyTheme(t);
          setTheme(t);
        }}
      >
        <option value="system">Theme: system</option>
        <option value="light">Theme: light</option>
        <option value="dark">Theme: dark</option>
      </select>
    </label>
  );
}
