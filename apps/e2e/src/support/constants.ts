/**
 * The one set of constants of the e2e tests: who signs in, with which passwords, from which
 * devices, at what time. Each preset's publication and site are in its start function.
 */

/**
 * The bootstrap admin of every system a test starts: the admin service creates it, with its
 * first publication, at its start from BOOTSTRAP_* (see `bootstrapEnv` in ./staff).
 */
export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };

/** The password of every other staff member a test adds (`addStaff`). */
export const STAFF_PASSWORD = 'staff-password-1';

/** The password of every reader a test registers. */
export const READER_PASSWORD = 'reader-password';

/** Readers' User-Agents: the gateway derives the device class from them. */
export const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
export const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** A Friday, so the week around it starts on Monday 2031-03-10: the time access reads in the access preset. */
export const ACCESS_TIME = new Date('2031-03-14T10:30:00.000Z');

/** The pages of the access preset's publication (news.example.com). */
export const ACCESS_SITE = 'https://news.example.com';

/** The pages of the whole-system preset's publication (all.example). */
export const ALL_SITE = 'https://all.example';

/** The browser viewports the layout tests take: a phone's and a desktop's. */
export const VIEWPORTS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
