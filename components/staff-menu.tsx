'use client';
// The main navigation, and at narrow widths the Menu button that shows and hides it (the links would otherwise
// take several rows before any content on a phone). Wide screens show the links in one row and hide the button.
import { useState } from 'react';
import Link from 'next/link';
import type { NavItem } from './staff-nav';

export function StaffMenu({ items }: { items: readonly Pick<NavItem, 'href' | 'label'>[] }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="secondary menu-button"
        aria-expanded={isOpen}
        aria-controls="main-nav"
        onClick={() => setOpen((open) => !open)}
      >
        Menu
      </button>
      <nav id="main-nav" aria-label="Main" className={isOpen ? 'is-open' : undefined}>
        {items.map((item) => (
          <Link key={item.href} href={item.href} onClick={() => setOpen(false)}>
            {item.label}
          </Link>
        ))}
      </nav>
    </>
  );
}
