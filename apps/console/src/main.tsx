import { createRoot } from 'react-dom/client';
import { App } from './app';
import { apiBaseUrl } from './common/config.util';
import './styles.css';

const root = createRoot(document.getElementById('root') as HTMLElement);
void apiBaseUrl().then((baseUrl) => root.render(<App baseUrl={baseUrl} />));
