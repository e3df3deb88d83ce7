import { useEffect } from 'react';

/**
 * When the focused control disappears (the row a deletion removed, the empty state's button once
 * there is an item), focus would fall to the page's body and a keyboard user would start over from
 * the top: it moves to the screen's heading instead.
 */
export function useKeepFocusOnScreen(): void {
  useEffect(() => {
    let focused: Element | null = null;
    const remember = (event: FocusEvent) => {
      focused = event.target instanceof Element ? event.target : null;
    };
    const lost = () => !document.activeElement || document.activeElement === document.body;
    const observer = new MutationObserver(() => {
      if (!focused || focused.isConnected || !lost()) return;
      focused = null;
      // After the current task: a closing dialog hands focus back to its opener in a timer of its own, which wins.
      setTimeout(() => {
        if (lost()) document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
      }, 0);
    });
    document.addEventListener('focusin', remember);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('focusin', remember);
      observer.disconnect();
    };
  }, []);
}
