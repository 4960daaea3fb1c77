import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';

/** Says so while the browser is offline; back online, everything shown is read again. */
export function OfflineBanner() {
  const [online, setOnline] = useState(navigator.onLine);
  const client = useQueryClient();
  useEffect(() => {
    const up = () => {
      setOnline(true);
      void client.invalidateQueries();
    };
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, [client]);
  if (online) return null;
  return (
    <div className="offline" role="status">
      You are offline. What you see may be out of date; changes will fail until the connection is back.
    </div>
  );
}
