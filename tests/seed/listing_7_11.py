# The seed's listing 7.11 (using tinyLangChain), typed in as printed.
from tinylangchain import *
from pydantic import BaseModel, Field
from typing import Literal
from dotenv import load_dotenv
load_dotenv('../.env')

class WeatherArgs(BaseModel):
    location: str = Field(description = "想要查询的城市")
    units: Literal["celsius", "fahrenheit"] = Field(
        description="温度单位，celsius：摄氏度，fahrenheit：华氏度")

class AddArgs(BaseModel):
    x: int = Field(description = "加法运算的参数 x")
    y: int = Field(description = "加法运算的参数 y")

@tool
def get_weather(args: WeatherArgs):
    '''获取某个城市的天气信息'''
    if "西安" in args.location:
        return "5 摄氏度" if args.units == 'celsius' else "41 华氏度"
    else:
        return "6 摄氏度" if args.units == 'celsius' else "42.8 华氏度"

@tool
def add(args: AddArgs):
    '''加法运算 x + y'''
    return args.x + args.y

llm = LLM(model = "qwen-plus", temperature = 0)
agent = create_agent(
    model = llm,
    tools = [add, get_weather]
)
example_query = "计算一下北京和西安的气温的总和"
events = agent.run(
    {"role": "user", "content": example_query},
)
def format(msg):
    print("====================== " + msg['role'] + "========================")
    print()
    print(msg)
    print()
for e in events:
    format(e[-1])
