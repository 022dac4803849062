import type { KernelVariable } from '../../../../sidecar/src/protocol';
import { useT } from '../../i18n/i18n';
import '../../i18n/messages/kernels';

/** The user's names in the kernel, with their types and a short repr. */
export function KernelVariables({ variables }: { variables: KernelVariable[] | null }) {
  const t = useT();
  return (
    <details className="kernel-variables" open>
      <summary>{t('kernel.variables')}</summary>
      {!variables || variables.length === 0 ? (
        <p className="muted">{t('kernel.variables.none')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('kernel.variables.name')}</th>
              <th scope="col">{t('kernel.variables.type')}</th>
              <th scope="col">{t('kernel.variables.value')}</th>
            </tr>
          </thead>
          <tbody>
            {variables.map((v) => (
              <tr key={v.name}>
                <td className="mono">{v.name}</td>
                <td className="mono muted">{v.type}</td>
                <td className="mono kernel-variable-repr" title={v.repr}>
                  {v.repr}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </details>
  );
}
