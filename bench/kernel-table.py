#!/usr/bin/env python3
"""kernel-table.py RUNS RATE - the tables of bench/kernel.sh from the
guest's runs.txt and rate.txt (see tests/kernel/scenarios/kbench.sh).

Per workload and configuration: every run's time per iteration (us), the
median, the median over rounds of the overhead against the same round's
baseline without the module loaded (and, for ltt, against the baseline
with the module loaded: before lazy attach, the module kept
sys_enter/sys_exit attached while loaded), events recorded per iteration on CPU 0 (the workload's CPU) and
on CPU 1 (the readers'), events lost, and ns of overhead per CPU-0 event
(for ltt also against the baseline with the module loaded).
"""
import statistics
import sys
from collections import defaultdict


def parse(path, tag):
    rows = []
    for line in open(path):
        f = line.split()
        if not f or f[0] != tag:
            continue
        rows.append({k: v for k, v in (x.split('=', 1) for x in f[1:])})
    return rows


def med(xs):
    return statistics.median(xs) if xs else float('nan')


def main():
    runs = parse(sys.argv[1], 'RUN')
    by = defaultdict(dict)  # (wl, cfg-with-mod) -> round -> row
    for r in runs:
        if r['round'] == '0':  # the warm-up, in a console.log after a hang
            continue
        cfg = r['cfg'] if r['cfg'] != 'none' else 'none/mod' + r['mod']
        by[(r['wl'], cfg)][int(r['round'])] = r
    order = ['none/mod0', 'none/mod1', 'ltt-sched', 'ftrace-sched', 'ftrace-sched-mono',
             'ltt-all', 'ltt-all-8x512', 'ftrace-all', 'ftrace-all-mono']
    for wl in ('pipe', 'getppid'):
        if (wl, 'none/mod0') not in by:
            continue
        base0 = by[(wl, 'none/mod0')]
        base1 = by.get((wl, 'none/mod1'), {})
        n = int(next(iter(base0.values()))['n'])
        unit = 'round trip' if wl == 'pipe' else 'call'
        print(f'\n{wl}: {n} iterations per run; us per {unit} in each round; '
              'overhead vs no module loaded (vs module loaded, for ltt)')
        print(f'| config | runs (us/{unit}) | median | overhead | ns/event (CPU 0) '
              f'| events/{unit} CPU 0 | CPU 1 | lost |')
        print('|---|---|---|---|---|---|---|---|')
        for cfg in order:
            rows = by.get((wl, cfg))
            if not rows:
                continue
            rounds = sorted(rows)
            us = [int(rows[k]['ns']) / n / 1000 for k in rounds]
            over0, over1, per_ev, per_ev1 = [], [], [], []
            for k in rounds:
                t = int(rows[k]['ns'])
                ev0 = int(rows[k].get('ev0', 0))
                if k in base0:
                    b = int(base0[k]['ns'])
                    over0.append(100.0 * (t - b) / b)
                    if ev0 >= n / 10:  # else noise over a handful of events
                        per_ev.append((t - b) / ev0)
                if cfg.startswith('ltt') and k in base1:
                    b = int(base1[k]['ns'])
                    over1.append(100.0 * (t - b) / b)
                    if ev0 >= n / 10:
                        per_ev1.append((t - b) / ev0)
            over = f'{med(over0):+.0f}%' if over0 else ''
            if over1:
                over += f' ({med(over1):+.0f}%)'
            ev0 = med([int(rows[k]['ev0']) / n for k in rounds])
            ev1 = med([int(rows[k]['ev1']) / n for k in rounds])
            lost = ','.join(rows[k]['lost'] for k in rounds)
            pe = f'{med(per_ev):.0f}' if per_ev and not cfg.startswith('none') else ''
            if per_ev1:
                pe += f' ({med(per_ev1):.0f})'
            d = 2 if wl == 'getppid' else 1  # getppid: about 0.5 us per call
            print(f'| {cfg} | {" ".join(f"{u:.{d}f}" for u in us)} | {med(us):.{d}f} | {over} '
                  f'| {pe} | {ev0:.2f} | {ev1:.2f} | {lost} |')
    rate = parse(sys.argv[2], 'RATE')
    if rate:
        print('\ntest probe (/proc/ltt-test on CPU 0, 4 x 1 MiB discard channel, reader on CPU 1)')
        print('| N | ns/event not recorded | ns/event recorded | record path ns/event '
              '| events/s recorded | lost |')
        print('|---|---|---|---|---|---|')
        for r in rate:
            n = int(r['n'])
            off, on = int(r['off_ns']) / n, int(r['on_ns']) / n
            print(f'| {n} | {off:.0f} | {on:.0f} | {on - off:.0f} | {1e9 / on:.0f} '
                  f'| {r["lost"]} |')


main()
