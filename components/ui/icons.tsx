import type { SVGProps } from "react";

type IconProps = SVGProps<SVGSVGElement> & { title?: string };

function Icon({ title, children, ...rest }: IconProps) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden={title ? undefined : true}
      role={title ? "img" : undefined}
      {...rest}
    >
      {title && <title>{title}</title>}
      {children}
    </svg>
  );
}

export function CheckIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M4.5 10.5l3.5 3.5 7.5-8" />
    </Icon>
  );
}

export function XIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M5.5 5.5l9 9M14.5 5.5l-9 9" />
    </Icon>
  );
}

export function WarningIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M10 3.2L18 16.8H2L10 3.2z" />
      <path d="M10 8.2v3.8M10 14.3v.1" />
    </Icon>
  );
}

export function InfoIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="10" cy="10" r="7.2" />
      <path d="M10 9v4.6M10 6.4v.1" />
    </Icon>
  );
}

export function PauseIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M7.5 5v10M12.5 5v10" />
    </Icon>
  );
}

export function SortIcon({ sortOrder, ...props }: IconProps & { sortOrder: "asc" | "desc" | null }) {
  return (
    <Icon {...props}>
      <path d="M6.5 8l3.5-3.5L13.5 8" opacity={sortOrder === "desc" ? 0.25 : 1} />
      <path d="M6.5 12l3.5 3.5 3.5-3.5" opacity={sortOrder === "asc" ? 0.25 : 1} />
    </Icon>
  );
}

export function ChevronIcon({ pointing = "right", ...props }: IconProps & { pointing?: "left" | "right" }) {
  return <Icon {...props}>{pointing === "right" ? <path d="M8 5l5 5-5 5" /> : <path d="M12 5l-5 5 5 5" />}</Icon>;
}

export function SearchIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="9" cy="9" r="5.2" />
      <path d="M13 13l3.5 3.5" />
    </Icon>
  );
}

export function SunIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="10" cy="10" r="3.2" />
      <path d="M10 2.5v1.8M10 15.7v1.8M2.5 10h1.8M15.7 10h1.8M4.7 4.7l1.3 1.3M14 14l1.3 1.3M4.7 15.3L6 14M14 6l1.3-1.3" />
    </Icon>
  );
}

export function MoonIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M16 12.2A6.5 6.5 0 017.8 4a6.5 6.5 0 108.2 8.2z" />
    </Icon>
  );
}

export function MonitorIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="2.8" y="3.5" width="14.4" height="9.8" rx="1.4" />
      <path d="M7 16.5h6M10 13.3v3.2" />
    </Icon>
  );
}
