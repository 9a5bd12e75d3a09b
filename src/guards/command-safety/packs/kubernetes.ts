// The `kubernetes` pack: deletes that take a namespace, every object of a kind, or stored data
// with them, and Helm releases.
import type { SimpleCommand } from '../../shell/types.js';
import type { Finding } from '../finding.js';
import { flag, packFinding, positionals } from './finding.js';

const KUBECTL = new Set(['kubectl', 'oc', 'kubecolor', 'microk8s.kubectl', 'k3s']);
const WITH_VALUE = new Set(['-n', '--namespace', '--context', '--cluster', '--kubeconfig', '-l', '--selector', '-f', '--filename', '-k', '--kustomize', '-o', '--output', '--field-selector', '--grace-period', '--timeout', '--user', '-s', '--server', '--token', '--as', '--cascade', '--wait']);
/** Kinds whose deletion takes everything inside them or stored data along. */
const WIDE_KINDS = /^(?:ns|namespaces?|pv|persistentvolumes?|pvc|persistentvolumeclaims?|crds?|customresourcedefinitions?(?:\.apiextensions\.k8s\.io)?|nodes?|no)$/i;

export function kubernetesRule(cmd: SimpleCommand): Finding | undefined {
  const [program] = cmd.argv;
  if (program === undefined) return undefined;
  if (KUBECTL.has(program)) {
    let p = positionals(cmd.argv, WITH_VALUE);
    if (program === 'k3s' || program === 'microk8s.kubectl') p = program === 'k3s' && p[0] === 'kubectl' ? p.slice(1) : p;
    if (p[0] !== 'delete') return undefined;
    if (flag(cmd.argv, ['all', 'all-namespaces'], 'A')) return packFinding('kubernetes', 'delete-all', `${program} delete --all deletes every object of the kind`, cmd);
    const kinds = (p[1] ?? '').split(',').map((k) => k.split('/')[0]!);
    const wide = kinds.find((k) => WIDE_KINDS.test(k));
    if (wide !== undefined) return packFinding('kubernetes', 'delete-namespace-or-storage', `${program} delete ${wide} deletes everything in it or the data it holds`, cmd);
    if (kinds.includes('all')) return packFinding('kubernetes', 'delete-all', `${program} delete all deletes every workload it selects`, cmd);
    return undefined;
  }
  if (program === 'helm') {
    const p = positionals(cmd.argv, new Set(['-n', '--namespace', '--kube-context', '--kubeconfig', '--timeout', '--description', '--cascade']));
    if (p[0] === 'uninstall' || p[0] === 'delete' || p[0] === 'del' || p[0] === 'un') return packFinding('kubernetes', 'helm-uninstall', `helm ${p[0]} removes a release and its resources`, cmd);
  }
  return undefined;
}
