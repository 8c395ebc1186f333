// The app writes, and charts draw, in Roboto: the font the report images are rendered with
// (src/adapters/charts/font.ts), shipped from the same package, so no font is fetched from elsewhere.
import regular from '@expo-google-fonts/roboto/400Regular/Roboto_400Regular.ttf?url';
import bold from '@expo-google-fonts/roboto/700Bold/Roboto_700Bold.ttf?url';

export const fontsReady: Promise<unknown> = Promise.all(
  [
    [regular, '400'],
    [bold, '700'],
  ].map(([url, weight]) => {
    const face = new FontFace('Roboto', `url(${url}) format('truetype')`, { weight, display: 'swap' });
    document.fonts.add(face);
    return face.load().catch(() => undefined);
  }),
);

let loaded = false;
void fontsReady.then(() => (loaded = true));
/** True once Roboto is in: charts drawn after that need no second layout. */
export const fontsLoaded = () => loaded;
