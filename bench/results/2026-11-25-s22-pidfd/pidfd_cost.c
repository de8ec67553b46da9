/* What a pidfd adds to clone(CLONE_VM|CLONE_VFORK) + waitid of a no-op child:
 * mode 0 none, 1 CLONE_PIDFD, 2 pidfd_open after the clone (docs/perf/python.md,
 * "Session 22"). gcc -O2 -o pidfd_cost pidfd_cost.c && ./pidfd_cost CHILD 3000 */
#define _GNU_SOURCE
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static char *child;
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
double T[4];
static void run(int mode){
  int pidfd=-1; struct clone_args a; memset(&a,0,sizeof a);
  a.flags=CLONE_VM|CLONE_VFORK|(mode==1?CLONE_PIDFD:0); a.pidfd=(unsigned long)&pidfd; a.exit_signal=SIGCHLD;
  static char stack[65536]; a.stack=(unsigned long)stack; a.stack_size=sizeof stack;
  double t0=now();
  long pid=syscall(SYS_clone3,&a,sizeof a);
  if(pid==0){char*argv[]={child,0};char*envp[]={0};syscall(SYS_execve,child,argv,envp);syscall(SYS_exit,127);}
  double t1=now();
  if(mode==2) pidfd=syscall(SYS_pidfd_open,pid,0);
  double t2=now();
  siginfo_t si; waitid(P_PID,pid,&si,WEXITED);
  double t3=now();
  if(pidfd>=0) close(pidfd);
  double t4=now();
  T[0]+=t1-t0;T[1]+=t2-t1;T[2]+=t3-t2;T[3]+=t4-t3;
}
int main(int c,char**v){child=v[1];int n=atoi(v[2]);
 for(int r=0;r<3;r++) for(int m=0;m<3;m++){memset(T,0,sizeof T);for(int i=0;i<n;i++)run(m);printf("mode %d clone %.1f open %.1f wait %.1f close %.1f (us)\n",m,T[0]/n/1e3,T[1]/n/1e3,T[2]/n/1e3,T[3]/n/1e3);}
}
