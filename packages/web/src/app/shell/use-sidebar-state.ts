import { useState } from 'react';
import { useLocalStorage, useMediaQuery } from '#web/lib/storage.ts';

const SIDEBAR_COLLAPSED_KEY = 'sidebar.collapsed';
/** The sidebar collapses by itself on windows narrower than this (seed 000 section 9). */
const SIDEBAR_AUTO_COLLAPSE_WIDTH = 1024;

/**
 * Collapsed or not: the user's choice is kept in localStorage; under 1024px the sidebar starts
 * collapsed whatever was chosen, and opening it there lasts until the width changes class.
 */
export function useSidebarState() {
  const [stored, setStored] = useLocalStorage<boolean>(SIDEBAR_COLLAPSED_KEY, false);
  const narrow = useMediaQuery(`(max-width: ${SIDEBAR_AUTO_COLLAPSE_WIDTH - 0.02}px)`);
  const [openWhileNarrow, setOpenWhileNarrow] = useState(false);
  const [lastNarrow, setLastNarrow] = useState(narrow);
  if (lastNarrow !== narrow) {
    setLastNarrow(narrow);
    setOpenWhileNarrow(false);
  }
  const collapsed = narrow ? !openWhileNarrow : stored === true;
  const toggle = () => {
    if (narrow) setOpenWhileNarrow(!openWhileNarrow);
    else setStored(!collapsed);
  };
  return { collapsed, narrow, toggle };
}
