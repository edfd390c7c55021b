import { useEffect, useRef, useState } from 'react';
import type { TopologyComponent } from '@watchdeck/core';
import { CARD_PAGE } from '../lib/constants.ts';
import { TopologyCard, type CardActions } from './topology-card.tsx';

/**
 * The cards, a page at a time: the first CARD_PAGE render at once and more follow as the end of
 * the grid nears the viewport, so 500 root cards show their first ones without waiting on all.
 */
export function CardGrid({
  cards,
  width,
  linkFor,
  actions,
  selectedId,
}: {
  cards: readonly TopologyComponent[];
  width: number;
  linkFor: (c: TopologyComponent) => string;
  actions?: CardActions;
  selectedId?: string;
}) {
  const [shown, setShown] = useState(CARD_PAGE);
  const sentinel = useRef<HTMLDivElement>(null);
  const more = shown < cards.length;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !more) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setShown((n) => n + CARD_PAGE);
      },
      { rootMargin: '600px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [more, shown]);
  return (
    <>
      <div className="flex flex-wrap items-start gap-3" data-testid="topology-cards">
        {cards.slice(0, shown).map((c) => (
          <TopologyCard
            key={c.id}
            component={c}
            width={width}
            to={linkFor(c)}
            actions={actions}
            selected={c.id === selectedId}
          />
        ))}
      </div>
      {more && <div ref={sentinel} className="h-8" aria-hidden />}
    </>
  );
}
