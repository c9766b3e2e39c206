/** The networks a method offers for a coin, from src/shared (spec section 3, "Network lists"). */
import { Select } from '@telegram-apps/telegram-ui';
import { NETWORKS, type NetworkId } from '../../../shared/networks';

export function NetworkSelect({
  label,
  networks,
  value,
  onChange,
}: {
  readonly label: string;
  readonly networks: readonly NetworkId[];
  readonly value: NetworkId;
  readonly onChange: (network: NetworkId) => void;
}) {
  return (
    <Select
      header={label}
      // The kit draws the header outside the field's <label>: the select is named here.
      aria-label={label}
      value={value}
      name="network"
      onChange={(event) => {
        const next = networks.find((n) => n === event.target.value);
        if (next !== undefined) onChange(next);
      }}
    >
      {networks.map((id) => (
        <option key={id} value={id}>
          {NETWORKS[id].name === NETWORKS[id].fullName
            ? NETWORKS[id].name
            : `${NETWORKS[id].name} (${NETWORKS[id].fullName})`}
        </option>
      ))}
    </Select>
  );
}
