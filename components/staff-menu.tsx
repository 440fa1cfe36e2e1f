'use client';
// The main navigation, and at narrow widths the Menu button that shows and hides it (the links would otherwise
// take several rows before any content on a phone). Wide screens show the links in one row and hide the button.
// The link of the screen in view is marked as the current page (a claim's page is the claims screen's) and, when a
// role has more links than the row shows, scrolled into the row's view.
import { useEffect, useRef, useState } from 'react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import type { NavItem } from './staff-nav';
import { useHydrated } from './use-hydrated';

export function StaffMenu({ items }: { items: readonly Pick<NavItem, 'href' | 'label'>[] }) {
  const [isOpen, setOpen] = useState(false);
  const pathname = usePathname();
  const isCurrent = (href: string) => pathname === href || pathname.startsWith(`${href}/`);
  const nav = useRef<HTMLElement>(null);
  const hydrated = useHydrated();
  useEffect(() => {
    nav.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);
  return (
    <>
      <button
        type="button"
        className="secondary menu-button"
        aria-expanded={isOpen}
        aria-controls="main-nav"
        disabled={!hydrated}
        onClick={() => setOpen((open) => !open)}
      >
        Menu
      </button>
      <nav ref={nav} id="main-nav" aria-label="Main" className={isOpen ? 'is-open' : undefined}>
        {items.map((item) => (
          <Link
            key={item.href}
            href={item.href}
            aria-current={isCurrent(item.href) ? 'page' : undefined}
            onClick={() => setOpen(false)}
          >
            {item.label}
          </Link>
        ))}
      </nav>
    </>
  );
}
