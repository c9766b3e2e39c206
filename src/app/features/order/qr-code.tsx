/** A QR code drawn as SVG paths (the deposit address of a sell), with a quiet zone. */
import { useMemo } from 'react';
import { encode } from 'uqr';

export function QrCode({
  value,
  label,
  size = 176,
}: {
  readonly value: string;
  readonly label: string;
  readonly size?: number;
}) {
  const { path, modules } = useMemo(() => {
    const qr = encode(value, { ecc: 'M', border: 2 });
    const parts: string[] = [];
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
      }),
    );
    return { path: parts.join(''), modules: qr.size };
  }, [value]);
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
      data-testid="qr-code"
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
