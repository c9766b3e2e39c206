/**
 * A file the server gives only to a caller who shows who they are (a receipt, a chat message's
 * attachment): downloaded with the caller's identity, as a plain link cannot carry it, and shown
 * through an object URL, released when the screen goes or the file changes. Undefined until it
 * is in, or when it could not be downloaded (the caller shows the file's name instead).
 */
import { useEffect, useRef, useState } from 'react';

export function useDownloadedFile(key: string, download: () => Promise<Blob>): string | undefined {
  const [url, setUrl] = useState<{ readonly key: string; readonly url: string }>();
  // The download of the current key, read when the key changes: a re-render never downloads again.
  const latest = useRef(download);
  useEffect(() => {
    latest.current = download;
  });
  useEffect(() => {
    let released = false;
    let objectUrl: string | undefined;
    void latest.current().then(
      (blob) => {
        if (released) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl({ key, url: objectUrl });
      },
      (error: unknown) => console.warn('file download failed', error),
    );
    return () => {
      released = true;
      if (objectUrl !== undefined) URL.revokeObjectURL(objectUrl);
    };
  }, [key]);
  return url?.key === key ? url.url : undefined;
}
