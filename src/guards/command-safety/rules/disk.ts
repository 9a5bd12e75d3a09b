// Writes that bypass the filesystem: block devices, partition tables, new filesystems.
import type { SimpleCommand } from '../../shell/types.js';
import { has, isWriteRedirect, splitArgs } from '../args.js';
import type { Finding } from '../finding.js';
import { isDevice, isNetworkDevice } from '../paths.js';

const MKFS = /^(mkfs(\..+)?|mke2fs|mkswap|mkdosfs|mkntfs|mkexfatfs|mkfs_.+|newfs(_.+)?)$/;
const PARTITIONERS = /^(fdisk|sfdisk|cfdisk|gdisk|cgdisk|sgdisk|parted|wipefs|blkdiscard)$/;

export function diskRule(cmd: SimpleCommand): Finding | undefined {
  for (const r of cmd.redirects) {
    if (isWriteRedirect(r.op, r.target) && isDevice(r.target) && !isNetworkDevice(r.target)) {
      return finding(cmd, `redirection onto device ${r.target}`);
    }
  }
  const [program] = cmd.argv;
  if (program === undefined) return undefined;
  if (program === 'dd') {
    const of = cmd.argv.find((a) => a.startsWith('of='));
    return of && isDevice(of.slice(3)) ? finding(cmd, `dd onto device ${of.slice(3)}`) : undefined;
  }
  if (MKFS.test(program)) {
    const target = cmd.words.slice(1).find((w) => isDevice(w.value) || (!w.literal && !w.value.startsWith('-')));
    return target ? finding(cmd, `${program} on ${target.value}`) : undefined;
  }
  if (PARTITIONERS.test(program)) return partitioner(cmd, program);
  if (program === 'shred' || program === 'tee' || program === 'cp' || program === 'pv') {
    const device = cmd.words.slice(1).find((w) => isDevice(w.value));
    return device ? finding(cmd, `${program} onto device ${device.value}`) : undefined;
  }
  if (program === 'diskutil') {
    const verb = cmd.argv.find((a, i) => i > 0 && !a.startsWith('-'))?.toLowerCase() ?? '';
    if (/^(erase.*|zerodisk|randomdisk|secureerase|partitiondisk|reformat|deletecontainer|deletevolume)$/.test(verb)) {
      return finding(cmd, `diskutil ${verb}`);
    }
    if (verb === 'apfs' && /^(delete|erase)/i.test(cmd.argv[cmd.argv.indexOf('apfs') + 1] ?? '')) {
      return finding(cmd, 'diskutil apfs delete');
    }
  }
  if (program === 'nvme' && /^(format|sanitize)$/.test(cmd.argv[1] ?? '')) return finding(cmd, `nvme ${cmd.argv[1]}`);
  return undefined;
}

function partitioner(cmd: SimpleCommand, program: string): Finding | undefined {
  const device = cmd.words.slice(1).find((w) => isDevice(w.value) || (!w.literal && !w.value.startsWith('-')));
  if (!device) return undefined;
  const args = splitArgs(cmd, { shortWithValue: program === 'wipefs' ? 'otp' : '' });
  if (readOnly(program, args)) return undefined;
  return finding(cmd, `${program} on ${device.value}`);
}

/** Listing a partition table is everyday work; changing it is not. */
function readOnly(program: string, args: ReturnType<typeof splitArgs>): boolean {
  switch (program) {
    case 'fdisk':
    case 'gdisk':
      return has(args, 'l', 'list');
    case 'sfdisk':
      return has(args, 'ldsVJ', 'list', 'dump', 'show-size', 'verify', 'json', 'list-free');
    case 'sgdisk':
      return has(args, 'piv', 'print', 'info', 'verify');
    case 'parted': {
      if (has(args, 'l', 'list')) return true;
      const script = args.operands.slice(1).map((w) => w.value);
      return script.length > 0 && script.every((s) => s === 'print' || s === 'p' || s === 'unit' || /^(s|b|kb|mb|gb|mib|gib|%|cyl|chs|compact)$/i.test(s));
    }
    case 'wipefs':
      return has(args, 'n', 'no-act') || !has(args, 'ao', 'all', 'offset');
    default:
      return false;
  }
}

function finding(cmd: SimpleCommand, what: string): Finding {
  return { category: 'disk', what, command: cmd };
}
