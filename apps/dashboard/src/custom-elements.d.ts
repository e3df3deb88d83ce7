import type { DetailedHTMLProps, HTMLAttributes } from 'react';

/** The web components of libs/elements (decisions J2), as the branding preview renders them. */
type GatehouseElement = DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & Record<string, unknown>;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'gatehouse-login-form': GatehouseElement;
      'gatehouse-register-form': GatehouseElement;
      'gatehouse-inline-paywall': GatehouseElement;
      'gatehouse-sticky-bar': GatehouseElement;
      'gatehouse-paywall-modal': GatehouseElement;
      'gatehouse-content-lock': GatehouseElement;
      'gatehouse-auth-modal': GatehouseElement;
    }
  }
}
