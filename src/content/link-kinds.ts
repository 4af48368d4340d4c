/** Links starting with http or // leave the site (and open in a new tab). */
export const EXTERNAL = /^(https?:)?\/\//i;
/** Other schemes (mailto:, tel:) are left alone. */
export const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
