import { storageSet } from './storage.js';

/** Close buttons of the banner and the notification bar persist their version. */
export function initDismiss(): void {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-dismiss]');
    if (!button) return;
    const key = button.dataset.dismiss!;
    storageSet(key, button.dataset.version ?? '');
    button.parentElement?.remove();
    window.dispatchEvent(new Event('resize'));
  });
}
