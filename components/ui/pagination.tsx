import { formatCount } from "@/lib/format/count";
import { Button } from "./button";
import { ChevronIcon } from "./icons";

interface PaginationProps {
  page: number;
  pageCount: number;
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
}

export function Pagination({ page, pageCount, total, pageSize, onPage }: PaginationProps) {
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav aria-label="Pages" data-testid="pagination" className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
      <span className="tabular-nums" data-testid="page-range">
        {formatCount(first)}–{formatCount(last)} of {formatCount(total)}
      </span>
      <Button variant="ghost" onClick={() => onPage(page - 1)} disabled={page <= 1} aria-label="Previous page" data-testid="page-prev">
        <ChevronIcon pointing="left" className="size-4" />
      </Button>
      <span className="tabular-nums">
        Page {page} of {pageCount}
      </span>
      <Button variant="ghost" onClick={() => onPage(page + 1)} disabled={page >= pageCount} aria-label="Next page" data-testid="page-next">
        <ChevronIcon className="size-4" />
      </Button>
    </nav>
  );
}
