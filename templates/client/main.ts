import { initDismiss } from './banner.js';
import { initCopyButtons, initTabs, initThemeToggle } from './content.js';
import { initLanguageMenu, initSearchMode } from './header.js';
import { initChatButton, initSidebar } from './layout.js';
import { initMobileMenu } from './menu.js';
import { initSearch } from './search.js';
import { initToc } from './toc.js';

/* The page's only script: behaviour on top of complete server-rendered HTML. */
initDismiss();
initSearchMode();
initSearch();
initLanguageMenu();
initMobileMenu();
initSidebar();
initToc();
initChatButton();
initCopyButtons();
initTabs();
initThemeToggle();
