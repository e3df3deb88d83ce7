import { useEffect } from 'react';

/** `Paywalls · Daily Planet · Gatehouse`: the screen, the publication it shows when there is one, the product. */
export function useDocumentTitle(screen: string, publication?: string): void {
  useEffect(() => {
    document.title = [screen, publication, 'Gatehouse'].filter(Boolean).join(' · ');
  }, [screen, publication]);
}
