# testbed/lib/screen_usage.sh -- screen.sh's --help.
# shellcheck shell=bash
# Sourced by screen.sh; defines usage only. Uses PROG (scripts/lib/common.sh).
{
usage() {
	cat <<EOF
Usage: testbed/$PROG --configs FILE --out DIR [options]

  --configs FILE   one configuration per line: NAME CC [MODULE_PARAM=VALUE ...]
                   (# comments and blank lines ignored; NAME: letters, digits, - _ . +);
                   CC is an rtt_fairness.sh --cc item: a cc, or one per RTT class joined
                   by '+' (bbr_a_fair+cubic), which runs only at the scenarios with that
                   many RTT classes (the others are skipped); its harm to the incumbent
                   (the last cc) needs reference configurations, the incumbent alone and
                   against itself (testbed/README.md, "Mixed congestion controls and harm")
  --out DIR        results; job results in DIR/<NAME>/<SCENARIO>/seed<N>/; DIR/screen.csv
  --scenarios LIST comma separated NAME:RTTS:BDP[:LOSS[:FLOWS]], RTTS joined by '+';
                   LOSS percent random loss, FLOWS flows per RTT class, or a count per class
                   joined by '+' (1+4) (both: rtt_fairness.sh's --loss and --flows-per-rtt,
                   for this scenario) (default
                   b1:10+50:1,b5:10+50:5,b20:10+50:20,r20:10+20:5,r30:10+30:5,r100:10+100:5);
                   or @FILE[:POINT+POINT...], a scenario file (testbed/scenarios/*.ini):
                   one scenario per point of it (or per point named), named after the
                   point (the file's name without .ini when it has none); its jobs take --duration, --rate, --flows-per-rtt and
                   --sample-ms from this command line only when they are given here, and
                   their keys hold a hash of the file
  --seeds LIST     comma separated seeds (default 1,2,3)
  --duration S     seconds per run (default 30)
  --rate MBIT      bottleneck rate (default 100)
  --flows-per-rtt N  flows per RTT class, or a comma separated count per class (default 1)
  --backend B      rtt_fairness.sh backend (default uml)
  --jobs N         jobs at once (default: number of cores; with --slurm: as Slurm allows)
  --sample-ms MS   ss/tc sampling (default 0: off; the module's gain trace is always kept)
  --client C       rtt_fairness.sh --client: auto (default), tcpflow or iperf3; part of the
                   job key (results from before the option, made with iperf3, are stale)
  --trace on|off   rtt_fairness.sh --trace: the module's gain trace (default on; off is part
                   of the job key)
  --warmup S       rtt_fairness.sh --warmup: seconds left out of the statistics at the start
                   (default: rtt_fairness.sh's, 5; another value is part of the job key)
  --hosts-per-class N  rtt_fairness.sh --hosts-per-class: each class's flows from N sender
                   hosts (default 1; another value is part of the job key; a scenario
                   file's hosts_per_class otherwise)
  --start-jitter S rtt_fairness.sh --jitter: each flow starts a random 0..S s late, drawn
                   from the seed, so that the seeds move the flows' phases too (default:
                   none; a value is part of the job key)
  --module-src DIR rtt_fairness.sh --module-src: a congestion control of your own, for the
                   configurations' CC items; the job keys hold a hash of DIR's sources
  --slurm          run the jobs to do as one Slurm job array (sbatch --wait --array=1-N)
                   instead of here; task K runs line K of DIR/slurm/jobs.txt, its log is
                   DIR/slurm/task-K.log; results land where a local run puts them
  --slurm-opts S   more sbatch options, split at blanks (e.g. "--partition=p --time=1:00:00");
                   sbatch also reads its SBATCH_* environment variables
  --dry-run        list the jobs and whether each is done (done, todo or stale); with
                   --slurm also the sbatch command
  --run-job DIR K  run job line K of DIR/slurm/jobs.txt (what each Slurm array task runs)

A job is done when DIR/<NAME>/<SCENARIO>/seed<N>/ has summary.json and a job.key (the job's
rtt_fairness.sh arguments, hashes of the module sources and of the testbed's guest side, and
the kernel: scripts/uml.sh id on UML) that matches this call; a key from before keys named
the kernel matches when the rest does and summary.json's kernel is this one's release.
Anything else there (other options, other module sources, tcpflow.py or kernel, a job
stopped before its end) is stale: moved to seed<N>.stale and run again.
A finished run that is not a result (testbed/analyze.py --check: a traffic client that
failed or stopped early, a flow that did not last the run, a delivery far below the link
that no loss explains, TCP memory pressure) runs once more, except on UML (it would repeat
byte for byte); if it is still not one, it is kept and named, and the tables leave it out.
EOF
}
}
