'use client';
// One GET of our API for a billing screen: the parsed body once it answers, or what the read threw (for ErrorNote
// to say). A change of `path` (or of `version`, bumped to read again after an action) starts a new read, and an
// answer that arrives after the screen moved on is dropped.
import { useEffect, useState } from 'react';
import { apiFetch } from '@/components/api-fetch';

export function useApiRead<T>(path: string, version = 0): { data: T | null; error: unknown } {
  const [state, setState] = useState<{ data: T | null; error: unknown }>({ data: null, error: null });
  useEffect(() => {
    let current = true;
    apiFetch<T>(path).then(
      (data) => {
        if (current) setState({ data, error: null });
      },
      (failure) => {
        if (current) setState((now) => ({ ...now, error: failure }));
      },
    );
    return () => {
      current = false;
    };
  }, [path, version]);
  return state;
}
