import json, math, itertools, sys
S=['1','2','4','8','16','auto']
data={}
for s in S:
    for r in json.load(open(f'split_{s}.json'))['rows']:
        if r.get('us') is None: continue
        data.setdefault((r['suite'],r['layer']),{})[s]=(r['us'],r['config'],r)
tiles=[("128x128x8/8x8",128,128,8,1.00,2),("128x64x16/8x4",128,64,16,0.80,2),("128x64x8/8x4",128,64,8,0.85,2),
       ("64x64x8/4x4",64,64,8,0.60,4),("128x32x8/4x4",128,32,8,0.55,4),("64x16x8/4x4",64,16,8,0.30,10)]
CU=132
def dims(r):
    P=(r['h']+2*r['pad_h']-r['dil_h']*(r['r']-1)-1)//r['stride_h']+1
    Q=(r['w']+2*r['pad_w']-r['dil_w']*(r['s']-1)-1)//r['stride_w']+1
    return P,Q
def wave(r,bm,bn,eff,slots):
    P,Q=dims(r); M=r['batch']*P*Q; Kg=r['k']//r['groups']
    tm=math.ceil(M/bm); tn=math.ceil(Kg/bn); tiles=tm*tn*r['groups']
    useful=M*Kg/(tm*bm*tn*bn); fill=tiles/(math.ceil(tiles/slots)*slots)
    return useful*fill*eff
def cost(r,t,s,fpb,pf):
    P,Q=dims(r); red=r['c']//r['groups']*r['r']*r['s']
    flops=2*r['batch']*P*Q*r['k']*red
    c=flops/wave(r,t[1],t[2],t[4],CU*t[5]/s)
    if s>1: c+=2*s*r['batch']*r['k']*P*Q*4*fpb+pf
    return c
def choose(r,v,minred,minper,fpb,pf,margin):
    red=r['c']//r['groups']*r['r']*r['s']
    one=min(cost(r,t,1,fpb,pf) for t in tiles)
    if red<minred: return '1'
    best=None
    for t in tiles:
        slices=math.ceil(red/t[3])
        top=min(16,max(2,red//minper),slices)
        s=2
        while s<=top:
            if str(s) in v and v[str(s)][0]==v[str(s)][0]:
                c=cost(r,t,s,fpb,pf)
                if best is None or c<best[0]: best=(c,s)
            s*=2
    if best and best[0]<margin*one: return str(best[1])
    return '1'
def total(params, suites=None):
    tot=0; per={}
    for k,v in data.items():
        r=v['1'][2]
        s=choose(r,v,*params)
        t=v[s][0]
        tot+=t; per[k[0]]=per.get(k[0],0)+t
    return tot,per
if __name__=='__main__':
    base=(1024,256,8,9e7,0.85)
    print('current(pow2)',total(base))
    print('auto measured', sum(v['auto'][0] for v in data.values()))
    print('best', sum(min(x[0] for s,x in v.items() if s!='auto') for v in data.values()))
    best=None
    for minred in [128,256,512,1024]:
      for minper in [32,64,128,256]:
        for fpb in [4,8,16,32,50]:
          for pf in [9e7,2e8,4e8,8e8,1.5e9]:
            for margin in [0.85,0.9,1.0]:
              t,_=total((minred,minper,fpb,pf,margin))
              if best is None or t<best[0]: best=(t,(minred,minper,fpb,pf,margin))
    print('fit',best, total(best[1])[1])
