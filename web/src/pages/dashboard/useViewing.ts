// How the dashboard is being looked at: full screen or not, and the auto-refresh beat (every N
// seconds, `tick` changes and live widgets load again).
import { useEffect, useState } from 'preact/hooks';

export function useViewing() {
  const [every, setEvery] = useState(0);
  const [tick, setTick] = useState(0);
  const [fullScreen, setFullScreen] = useState(false);
  useEffect(() => {
    if (!every) return;
    const t = setInterval(() => setTick((n) => n + 1), every * 1000);
    return () => clearInterval(t);
  }, [every]);
  useEffect(() => {
    const l = () => setFullScreen(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', l);
    return () => document.removeEventListener('fullscreenchange', l);
  }, []);
  const toggleFullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.querySelector('section.dashboard')?.requestFullscreen();
  };
  return { every, setEvery, tick, fullScreen, toggleFullScreen };
}
