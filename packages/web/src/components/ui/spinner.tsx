import { LoaderCircle } from 'lucide-react';
import { cn } from '#web/lib/cn.ts';

export function Spinner({ size = 16, className }: { size?: number; className?: string }) {
  return <LoaderCircle size={size} className={cn('animate-spin text-gray-400', className)} aria-hidden />;
}
