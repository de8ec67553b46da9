/* The control of between_spawns.py in C: vfork + execve + waitpid of CHILD
 * in a loop, the vfork call timed, with nothing, a 5 or 50 µs spin, a 50 µs
 * sleep or a 2 MiB memory walk between the wait and the next vfork; the
 * cells interleaved round by round, medians. `pin` pins the process (and
 * so its children) to CPU 0.
 *
 *   cc -O2 -o target/between_spawns_c bindings/python/bench/between_spawns_c.c
 *   target/between_spawns_c target/peers/noop 200 5 [pin]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <sys/wait.h>
#include <string.h>
static long long ns(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1000000000LL+t.tv_nsec;}
static int cmp(const void*a,const void*b){long long x=*(long long*)a,y=*(long long*)b;return x<y?-1:x>y;}
static char *buf;
int main(int argc,char**argv){
  char *child=argv[1]; int n=atoi(argv[2]); int rounds=atoi(argv[3]);
  if(argc>4 && !strcmp(argv[4],"pin")){cpu_set_t s;CPU_ZERO(&s);CPU_SET(0,&s);sched_setaffinity(0,sizeof s,&s);}
  buf=malloc(4<<20);
  const char *names[]={"nothing","spin 5us","spin 50us","sleep 50us","touch 2MiB"};
  long long *sp=malloc(sizeof(long long)*n), med[5][64];
  char *args[]={child,NULL}; char *env[]={NULL};
  for(int r=0;r<rounds;r++) for(int ci=0;ci<5;ci++){int c=(r%2)?4-ci:ci;
    for(int i=0;i<n;i++){
      long long t0=ns(); pid_t p=vfork(); if(p==0){execve(child,args,env);_exit(127);}
      long long t1=ns(); int st; waitpid(p,&st,0);
      sp[i]=t1-t0;
      if(c==1){long long e=ns()+5000;while(ns()<e);}
      if(c==2){long long e=ns()+50000;while(ns()<e);}
      if(c==3){struct timespec t={0,50000};nanosleep(&t,0);}
      if(c==4){for(int k=0;k<(2<<20);k+=64)buf[k]++;}
    }
    qsort(sp,n,sizeof *sp,cmp); med[c][r]=sp[n/2];
  }
  for(int c=0;c<5;c++){qsort(med[c],rounds,sizeof(long long),cmp);printf("  %-12s vfork call %6.1f us\n",names[c],med[c][rounds/2]/1e3);}
}
