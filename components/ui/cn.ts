import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

/**
 * Joins class names (conditionals and arrays allowed); when two Tailwind classes set the same thing, the later one
 * wins, so a caller's `className` overrides a variant's colour instead of racing it in the stylesheet.
 */
export function cn(...classes: ClassValue[]): string {
  return twMerge(clsx(classes));
}
